; Household rearrangement (Home Assistant Benchmark), with navigation.
;
; One implicit robot (the simulator's facts name no robot): `robot_at` and the hand predicates refer to it.
; Goals stay positive: `closed` is a predicate of its own rather than `(not (opened ?r))`.
; `on_surface` and `surface_goal` are derived by the problem generator (an object with no `in` fact, a goal
; position outside every receptacle), so that "not inside a closed container" needs no negation.
(define (domain rearrange)
  (:requirements :strips :typing :conditional-effects)
  (:types
    entity - object
    movable goal receptacle waypoint - entity
    fridge drawer - receptacle)
  (:predicates
    (robot_at ?e - entity)
    (hand_empty)
    (holding ?o - movable)
    (on_surface ?o - movable)
    (in ?o - movable ?r - receptacle)
    (object_at ?o - movable ?g - goal)
    (surface_goal ?g - goal)
    (goal_in ?g - goal ?r - receptacle)
    (opened ?r - receptacle)
    (closed ?r - receptacle))

  ; The robot ends next to its destination only: it leaves every entity it was near (robot_at is
  ; "planar distance < 2 m" in the simulator, so an observed state may have several).
  (:action nav
    :parameters (?to - entity)
    :precondition (and)
    :effect (and (forall (?e - entity) (not (robot_at ?e))) (robot_at ?to)))

  (:action pick
    :parameters (?o - movable)
    :precondition (and (robot_at ?o) (hand_empty) (on_surface ?o))
    :effect (and (holding ?o) (not (hand_empty)) (not (on_surface ?o))))

  (:action pick_from
    :parameters (?o - movable ?r - receptacle)
    :precondition (and (robot_at ?o) (hand_empty) (in ?o ?r) (opened ?r))
    :effect (and (holding ?o) (not (hand_empty)) (not (in ?o ?r))))

  (:action place
    :parameters (?o - movable ?g - goal)
    :precondition (and (robot_at ?g) (holding ?o) (surface_goal ?g))
    :effect (and (object_at ?o ?g) (on_surface ?o) (hand_empty) (not (holding ?o))))

  (:action place_in
    :parameters (?o - movable ?g - goal ?r - receptacle)
    :precondition (and (robot_at ?g) (holding ?o) (goal_in ?g ?r) (opened ?r))
    :effect (and (object_at ?o ?g) (in ?o ?r) (hand_empty) (not (holding ?o))))

  (:action open_fridge
    :parameters (?r - fridge)
    :precondition (and (robot_at ?r) (hand_empty) (closed ?r))
    :effect (and (opened ?r) (not (closed ?r))))

  (:action close_fridge
    :parameters (?r - fridge)
    :precondition (and (robot_at ?r) (hand_empty) (opened ?r))
    :effect (and (closed ?r) (not (opened ?r))))

  (:action open_drawer
    :parameters (?r - drawer)
    :precondition (and (robot_at ?r) (hand_empty) (closed ?r))
    :effect (and (opened ?r) (not (closed ?r))))

  (:action close_drawer
    :parameters (?r - drawer)
    :precondition (and (robot_at ?r) (hand_empty) (opened ?r))
    :effect (and (closed ?r) (not (opened ?r)))))
