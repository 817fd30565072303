"""`python -m skills.imitate <student> <out.pt>`: a learned skill taught by its scripted controller
(`skills.scripted`, privileged state) on the training layouts, as a start point for a PPO fine-tune.

Why: on the skills table's 200 held-out episodes the scripted pick picks 194 and the scripted place
places 197, and between them they solve 49 of the shipped pick's and place's 52 failures on the same
episodes (docs/results/hab/diagnostics/timeouts). PPO alone stopped short of 90% for both.

How (DAgger with a teacher that takes over, Ross et al. 2011): round 0 records the teacher acting from
every episode's start; each later round lets the student act (sampled, as it trains) and hands the
episode to the teacher at a random step (uniform over the first `--takeover` steps; only while the
student holds what the episode started with, the scripted plans' start: pick's empty gripper, place's
object), and the teacher plans afresh from the state the student left. Only episodes the teacher ends in
success are kept; only the teacher's steps are labels, the student's steps before them feed the LSTM's
memory. After each round the policy is fitted to every label so far: the squared error between its mean
action and the teacher's action (outputs already past a bound the teacher sits on cost nothing, so a grip
held at +3 stays held; the teacher's suction, off until it touches the
object, is no label while a pick holds nothing: the student keeps its own grip there, on from the start; a
place's release is a label).
The teacher's executed actions carry Gaussian noise (`--noise`; its labels stay clean), so the labels
show the way back from small errors (DART, Laskey et al. 2017), and the student is blind to its previous
action while fitting (`_blind`). A student whose arm takes end-effector steps (the shipped place) is taught
the steps the teacher's joint actions would make (`skills.scripted.control.Robot.ee_step`); the scripted
place releases only a still object, so it needs `--noise 0.1` (3 of 20 placed at 0.3). The student's
observation normaliser is kept, and so are its values: the actor and critic share one trunk, and a
squared-error term holds the critic's outputs on the recorded steps at what they were before fitting, so
the PPO fine-tune starts with the critic it had. The written file keeps the student's env steps (the
teacher's steps are not counted as training) and records the rounds in its provenance.
A feed-forward student is taught the same way (the no-base open drawer's MLP). With `--keep-own W` its
mean action is also held, with weight W, at what it was on every step and dimension the teacher gave no
label (`fit`'s `own_weight`): that teacher only finishes what the student started (release, back to rest,
stop), and fitted to those labels alone the student lost its own start (the teacher's successes fell
16 -> 2 -> 0 of 100 over rounds 1-3).

    python -m skills.imitate skills/checkpoints/pick.pt runs/imitate/pick.pt   # the defaults: the recipe measured
    tpsrl-train skill=pick run.init_from=runs/imitate/pick.pt ppo.lr=1e-4 run.total_steps=1000000

Measured on the pick and the place: docs/results.md (thirty-seventh and thirty-eighth sessions);
docs/skills.md.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import Tensor

from tpsrl.engine.inference import PolicyRunner, load_policy, single_thread_acting
from tpsrl.engine.minibatch import pack
from tpsrl.engine.policy import ActorCritic

from .policy import ActionLayout
from .registry import make_env
from .scripted import make_scripted
from .warmstart import WarmStartError, load_source, write_derived, written

SEED = (
    5_000_000  # episode seeds of round r are SEED + 100_000 r + k: training layouts, apart from evaluation's
)


@dataclass
class Episode:
    """One recorded episode: per step the observation, the previous (clipped) action, the teacher's action
    and, per action dimension, whether it is a label (1) or not (0: the student's steps, only memory for
    the LSTM; and the grip while the teacher keeps it off holding nothing, see `record`)."""

    obs: dict[str, np.ndarray]
    prev_action: np.ndarray
    target: np.ndarray
    label: np.ndarray
    held_value: np.ndarray | None = None
    """The student's normalised values before any fit (`fit` fills it in once)."""
    held_action: np.ndarray | None = None
    """The student's mean actions before any fit (`fit` fills it in with `held_value`)."""


def record(
    env: Any,
    student: PolicyRunner,
    teacher: Any,
    seed: int,
    takeover: int | None,
    keys: list[str],
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> tuple[Episode | None, bool]:
    """Runs one episode: the teacher from the start (`takeover` None) or from step `takeover` on (the
    student before it, or to the end once what it holds differs from the episode's start: the scripted
    plans start from there). The teacher's steps execute its action plus Gaussian noise of std `noise` (its
    label stays the clean action). Returns the episode (None when the teacher never acted) and whether the
    episode succeeded."""
    rng = rng if rng is not None else np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    start_held = env.backend.held  # the scripted plans start from what the episode starts with in hand
    student.reset()
    teaching = takeover is None
    grip = ActionLayout.of(env).slices.get("grip_action")
    if teaching:
        teacher.reset(env)
    rows: dict[str, list] = {k: [] for k in keys}
    prev, target, label = [], [], []
    done, t, info = False, 0, {}
    while not done:
        if not teaching and t >= takeover and env.backend.held == start_held:
            teacher.reset(env)
            teaching = True
        for k in keys:
            rows[k].append(np.asarray(obs[k], np.float32))
        prev.append(student.prev_action[0].numpy().copy())
        own = student.act(obs)  # keeps the student's memory on the executed steps
        if teaching:
            clean = np.clip(teacher.act(obs, env), student.low, student.high).astype(np.float32)
            action = clean + (noise * rng.standard_normal(clean.shape) if noise else 0.0)
            action = np.clip(action, student.low, student.high).astype(np.float32)
            student.prev_action = torch.as_tensor(action)[None]
        else:
            clean = action = own
        target.append(clean)
        weight = np.full(clean.shape, float(teaching), np.float32)
        pick = start_held is None and env.backend.held is None
        if grip is not None and pick and float(clean[grip][0]) <= 0.0:
            weight[grip] = 0.0  # when a pick switches the suction on is the student's (its grip stays on)
        label.append(weight)
        obs, _, terminated, truncated, info = env.step(action)
        done, t = terminated or truncated, t + 1
    ok = info.get("episode_stats", {}).get("success", 0.0) > 0.5
    if not any(w.any() for w in label):
        return None, ok
    return Episode(
        {k: np.stack(v) for k, v in rows.items()},
        np.stack(prev),
        np.stack(target),
        np.stack(label),
    ), ok


def fit(
    policy: ActorCritic,
    frozen: ActorCritic,
    episodes: list[Episode],
    epochs: int,
    lr: float,
    batch: int,
    value_weight: float,
    low: torch.Tensor,
    high: torch.Tensor,
    generator: torch.Generator,
    blind: bool = True,
    own_weight: float = 0.0,
) -> dict[str, float]:
    """Fits the policy's mean action to the labels of `episodes` (whole episodes, memory from their start),
    holding its values at `frozen`'s; with `blind`, its previous-action inputs set to 0 and kept there; with
    `own_weight`, also holding its mean action at `frozen`'s on every step and dimension that is no label
    (the student's own steps). Returns the last epoch's mean losses."""
    params = [p for n, p in policy.named_parameters() if n != "log_std" and not n.startswith("obs_norm")]
    optimizer = torch.optim.Adam(params, lr=lr)
    policy.train()
    if blind:
        _blind(policy)
    with torch.no_grad():
        for e in episodes:
            if e.held_value is None or (own_weight and e.held_action is None):
                obs, prev, target, _, mask = _packed([e])
                e.held_value = frozen.evaluate(obs, prev, target, mask, _zeros(frozen, mask))[1].numpy()
                core = frozen.actor_body.sequences(
                    frozen.normalize_obs(obs), prev, mask, _zeros(frozen, mask)
                )
                e.held_action = frozen.actor(core).numpy()
    last: dict[str, float] = {}
    for _ in range(epochs):
        order = torch.randperm(len(episodes), generator=generator).tolist()
        sums = {"action": 0.0, "value": 0.0, "own": 0.0}
        count = 0
        for i in range(0, len(order), batch):
            chunk = [episodes[j] for j in order[i : i + batch]]
            obs, prev, target, label, mask = _packed(chunk)
            core = policy.actor_body.sequences(policy.normalize_obs(obs), prev, mask, _zeros(policy, mask))
            mean = policy.actor(core)
            err = (_past_bounds(mean, target, low, high).square() * label).sum()
            err = err / label.amax(-1).sum().clamp(min=1.0)
            values = _values(policy, core, obs, prev, target, mask)
            rows = _layout(chunk)[1]
            keep = (values - _gather(chunk, rows, lambda e: e.held_value)).square().mean()
            loss = err + value_weight * keep
            own = torch.zeros(())
            if own_weight:
                free = 1.0 - label
                held = _gather(chunk, rows, lambda e: e.held_action)
                own = ((mean - held).square() * free).sum() / free.amax(-1).sum().clamp(min=1.0)
                loss = loss + own_weight * own
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 0.5)
            optimizer.step()
            if blind:
                _blind(policy)
            sums["action"] += float(err.detach()) * len(chunk)
            sums["value"] += float(keep.detach()) * len(chunk)
            sums["own"] += float(own.detach()) * len(chunk)
            count += len(chunk)
        last = {k: v / max(count, 1) for k, v in sums.items()}
    policy.eval()
    return last


def _past_bounds(mean: Tensor, target: Tensor, low: Tensor, high: Tensor) -> Tensor:
    """The mean's error from the teacher's action, none where the mean is past the bound the teacher's
    action sits on (a grip held at +3 is held as +1 is). Elsewhere the mean itself, not clipped: clipped, a
    mean past the other bound (a stop output at -5 whose label is +1) got no gradient and stayed there (the
    no-base open drawer's fit held at 10 a step for three rounds)."""
    done = ((mean >= high) & (target >= high)) | ((mean <= low) & (target <= low))
    return torch.where(done, torch.zeros_like(mean), mean - target)


@torch.no_grad()
def _blind(policy: ActorCritic) -> None:
    """Zeros the weights by which the LSTM reads the previous action (the last `action_dim` input columns
    of its first layer). Why: the scripted actions change slowly, so a student that reads its previous
    action learns to repeat it (open-loop error 0.01 per dimension on the teacher's episodes) and, acting on
    its own, repeats its own small first actions: it drove in and stopped with the gripper 0.5 m from the
    object in 30 of 30 held-out episodes (0% picked; causal confusion, de Haan et al. 2019)."""
    for body in (policy.actor_body, policy.critic_body):
        if body is not None and body.core is not None:
            body.core.lstm.weight_ih_l0[:, -policy.action_dim :] = 0.0


def _values(
    policy: ActorCritic,
    core: torch.Tensor,
    obs: dict[str, torch.Tensor],
    prev: torch.Tensor,
    target: torch.Tensor,
    mask: torch.Tensor,
) -> torch.Tensor:
    """The critic's normalised values on the packed steps: from the actor's trunk output `core` when the
    two share it (no second pass), else by `evaluate`."""
    if policy.critic_body is None and policy.privileged is None:
        return policy.critic(core).squeeze(-1)
    return policy.evaluate(obs, prev, target, mask, _zeros(policy, mask))[1]


def _zeros(policy: ActorCritic, mask: torch.Tensor) -> torch.Tensor:
    return torch.zeros(mask.shape[1], *policy.state_shape())


def _layout(episodes: list[Episode]) -> tuple[torch.Tensor, torch.Tensor]:
    """`evaluate`'s packed layout of the episodes: the `[L, K]` mask and, in its row-major order, each
    step's row in the episodes' concatenation."""
    starts = np.cumsum([0] + [len(e.label) for e in episodes])
    packed = pack([torch.arange(int(starts[i]), int(starts[i + 1])) for i in range(len(episodes))])
    mask = packed.index >= 0
    return mask, packed.index[mask]


def _gather(
    episodes: list[Episode], rows: torch.Tensor, get: Callable[[Episode], np.ndarray]
) -> torch.Tensor:
    return torch.as_tensor(np.concatenate([get(e) for e in episodes]))[rows]


def _packed(episodes: list[Episode]) -> tuple[dict[str, torch.Tensor], ...]:
    """The episodes' steps in `evaluate`'s packed layout: observations, previous actions, targets, labels
    and the mask."""
    mask, rows = _layout(episodes)
    obs = {k: _gather(episodes, rows, lambda e, k=k: e.obs[k]) for k in episodes[0].obs}
    fields = (
        _gather(episodes, rows, lambda e, f=f: getattr(e, f)) for f in ("prev_action", "target", "label")
    )
    return (obs, *fields, mask)


def imitate(
    source: str | Path,
    out: str | Path,
    rounds: int = 6,
    episodes: int = 100,
    takeover: int = 100,
    epochs: int = 10,
    lr: float = 3e-4,
    batch: int = 4,
    value_weight: float = 1.0,
    seed: int = 0,
    noise: float = 0.3,
    blind: bool = True,
    log: Callable[[dict[str, Any]], None] = print,
    own_weight: float = 0.0,
) -> Path:
    """Teaches the policy of `source` (a manipulation skill with a scripted controller) by its teacher and
    writes it to `out` (which must not exist). See the module's docstring."""
    out = Path(out)
    data, skill, fields = load_source(source, out)
    for name, value in (
        ("rounds", rounds),
        ("episodes", episodes),
        ("takeover", takeover),
        ("epochs", epochs),
    ):
        if value < 1:
            raise WarmStartError(f"{name}={value}: must be at least 1")
    for name, value in (("noise", noise), ("own_weight", own_weight)):
        if not (math.isfinite(value) and value >= 0):
            raise WarmStartError(f"{name}={value}: must be a finite number >= 0")
    teacher = make_scripted(skill)
    single_thread_acting()
    torch.manual_seed(seed)
    env = make_env(skill, **fields)
    student = _student(source)
    policy = student.policy
    frozen = copy.deepcopy(policy).eval()
    low, high = torch.as_tensor(student.low), torch.as_tensor(student.high)
    rng, generator = np.random.default_rng(seed), torch.Generator().manual_seed(seed)
    kept: list[Episode] = []
    history = []
    try:
        for r in range(rounds):
            start, wins, tries, own = time.monotonic(), 0, 0, 0
            student.deterministic = False
            for k in range(episodes):
                switch = None if r == 0 else int(rng.integers(0, takeover))
                episode, ok = record(
                    env, student, teacher, SEED + 100_000 * r + k, switch, student.keys, noise, rng
                )
                tries += 1
                if episode is None:
                    own += ok
                elif ok:
                    kept.append(episode)
                    wins += 1
            losses = fit(
                policy, frozen, kept, epochs, lr, batch, value_weight, low, high, generator, blind, own_weight
            )
            entry = {
                "round": r,
                "teacher_success": wins,
                "student_alone": own,
                "episodes": tries,
                "kept": len(kept),
                "labels": int(sum(e.label.any(-1).sum() for e in kept)),
                **{f"loss_{k}": round(v, 5) for k, v in losses.items()},
                "seconds": round(time.monotonic() - start, 1),
            }
            history.append(entry)
            log(entry)
    finally:
        env.close()
    model = {k: v.detach().clone() for k, v in policy.state_dict().items()}
    derived = {
        "derived": "imitate",
        "teacher": f"scripted:{skill}",
        "rounds": history,
        "settings": {
            "takeover": takeover,
            "epochs": epochs,
            "lr": lr,
            "batch": batch,
            "value_weight": value_weight,
            "noise": noise,
            "blind": blind,
            "own_weight": own_weight,
            "seed": seed,
        },
    }
    return write_derived(data, out, source, derived, {}, model=model)


def _student(source: str | Path) -> PolicyRunner:
    """The policy of `source` acting with sampled actions (LSTM or feed-forward)."""
    runner, _ = load_policy(source)
    runner.deterministic = False
    return runner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills.imitate", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="checkpoint or run directory of a trained manipulation skill")
    parser.add_argument("out", help="the policy file to write (must not exist)")
    parser.add_argument("--rounds", type=int, default=6, help="DAgger rounds; round 0 is the teacher alone")
    parser.add_argument("--episodes", type=int, default=100, help="episodes per round")
    parser.add_argument(
        "--takeover", type=int, default=100, help="the teacher takes over at a step below this"
    )
    parser.add_argument("--epochs", type=int, default=10, help="passes over all labels after each round")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--batch", type=int, default=4, help="episodes per gradient step")
    parser.add_argument("--value-weight", type=float, default=1.0, help="weight of holding the values")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--noise", type=float, default=0.3, help="std of the noise on the teacher's executed actions"
    )
    parser.add_argument(
        "--keep-own",
        type=float,
        default=0.0,
        help="weight of holding the student's own mean action where the teacher gives no label",
    )
    parser.add_argument(
        "--see-previous-action",
        action="store_true",
        help="keep the LSTM's previous-action input (default: zeroed)",
    )
    args = parser.parse_args(argv)
    return written(
        lambda: imitate(
            args.source,
            args.out,
            args.rounds,
            args.episodes,
            args.takeover,
            args.epochs,
            args.lr,
            args.batch,
            args.value_weight,
            args.seed,
            args.noise,
            not args.see_previous_action,
            own_weight=args.keep_own,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
