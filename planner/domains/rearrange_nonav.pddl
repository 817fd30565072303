; Household rearrangement (Home Assistant Benchmark), NoNav ablation.
;
; Same types and predicates as rearrange.pddl, but no navigation action: pick, place, open and close do not
; need `robot_at`, because in this ablation the skills move the base themselves. `robot_at` stays declared
; so that observed facts from the simulator remain legal input; no action reads or writes it.
(define (domain rearrange_nonav)
  (:requirements :strips :typing)
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

  (:action pick
    :parameters (?o - movable)
    :precondition (and (hand_empty) (on_surface ?o))
    :effect (and (holding ?o) (not (hand_empty)) (not (on_surface ?o))))

  (:action pick_from
    :parameters (?o - movable ?r - receptacle)
    :precondition (and (hand_empty) (in ?o ?r) (opened ?r))
    :effect (and (holding ?o) (not (hand_empty)) (not (in ?o ?r))))

  (:action place
    :parameters (?o - movable ?g - goal)
    :precondition (and (holding ?o) (surface_goal ?g))
    :effect (and (object_at ?o ?g) (on_surface ?o) (hand_empty) (not (holding ?o))))

  (:action place_in
    :parameters (?o - movable ?g - goal ?r - receptacle)
    :precondition (and (holding ?o) (goal_in ?g ?r) (opened ?r))
    :effect (and (object_at ?o ?g) (in ?o ?r) (hand_empty) (not (holding ?o))))

  (:action open_fridge
    :parameters (?r - fridge)
    :precondition (and (hand_empty) (closed ?r))
    :effect (and (opened ?r) (not (closed ?r))))

  (:action close_fridge
    :parameters (?r - fridge)
    :precondition (and (hand_empty) (opened ?r))
    :effect (and (closed ?r) (not (opened ?r))))

  (:action open_drawer
    :parameters (?r - drawer)
    :precondition (and (hand_empty) (closed ?r))
    :effect (and (opened ?r) (not (closed ?r))))

  (:action close_drawer
    :parameters (?r - drawer)
    :precondition (and (hand_empty) (opened ?r))
    :effect (and (closed ?r) (not (opened ?r)))))
