"""`tpsrl-bench skills [--quick] [--json]`: scripted and random-action success per skill, env steps/s.

Scripted success is measured on each skill's own training distribution (train layouts) and on the
held-out layouts; random success uses uniform random actions; steps/s is one process stepping the
skill env with random actions, with state sensors only and with 64x64 ray-cast depth. The last line
with --json is one JSON object (scripted_success, scripted_heldout, random_success, episodes, sps_state,
sps_depth64, failed_layouts and failed_causes of the scripted episodes).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from skills.scripted import make_scripted
from skills.scripted.envs import SKILLS, make_skill_env, rollout
from tpsrl.sim.episode import EpisodeSpecError


class RandomPolicy:
    """Uniform random actions (the random-success baseline)."""

    def __init__(self, skill: str, seed: int) -> None:
        self.skill = skill
        self.rng = np.random.default_rng(seed)

    def reset(self, env) -> None:
        env.action_space.seed(int(self.rng.integers(1 << 31)))

    def act(self, obs, env) -> np.ndarray:
        return env.action_space.sample()

    def done(self) -> bool:
        return False


def success_rate(
    skill: str, split: str, episodes: int, scripted: bool, seed0: int
) -> tuple[float, list[int], dict[str, int]]:
    """(success rate, layouts of the failed episodes, failed episodes per `fail/<cause>`).

    A seed whose episode the simulator rejects at reset (`EpisodeSpecError`: the sampled spawn is not a
    valid initial state) is skipped and counted as `spawn_error`, outside the rate's denominator.
    """
    env = make_skill_env(skill, split=split)
    ok, done, failed, causes = 0, 0, [], {}
    for i in range(episodes):
        policy = make_scripted(skill) if scripted else RandomPolicy(skill, seed0 + i)
        try:
            out = rollout(env, policy, seed=seed0 + i)
        except EpisodeSpecError:
            causes["spawn_error"] = causes.get("spawn_error", 0) + 1
            continue
        done += 1
        ok += out.success
        if not out.success:
            failed.append(out.layout)
            for k, v in out.info.items():
                if k.startswith("fail/") and v:
                    causes[k[5:]] = causes.get(k[5:], 0) + 1
    env.close()
    return ok / max(done, 1), failed, causes


def _reset(env, seed: int | None = None, tries: int = 20) -> None:
    """Reset, sampling again when the simulator rejects the sampled episode (`EpisodeSpecError`)."""
    for k in range(tries):
        try:
            env.reset(seed=None if seed is None else seed + k)
            return
        except EpisodeSpecError:
            continue
    raise RuntimeError(f"{tries} episodes in a row rejected at reset")


def steps_per_s(skill: str, depth: int, steps: int) -> float:
    env = make_skill_env(skill, depth=depth)
    _reset(env, seed=0)
    env.action_space.seed(0)
    spent, n = 0.0, 0
    while n < steps:  # steps only: resets (scene compiles on a new layout) are not timed
        a = env.action_space.sample()
        t0 = time.perf_counter()
        _, _, term, trunc, _ = env.step(a)
        spent += time.perf_counter() - t0
        n += 1
        if term or trunc:
            _reset(env)
    env.close()
    return n / spent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tpsrl-bench skills", description=__doc__)
    p.add_argument("--quick", action="store_true", help="20 train / 10 held-out episodes per skill")
    p.add_argument("--json", action="store_true", help="last line: one JSON object")
    p.add_argument("--skills", default=",".join(SKILLS), help="comma-separated skill names")
    p.add_argument("--train", type=int, default=None, help="scripted episodes on train layouts (200)")
    p.add_argument("--heldout", type=int, default=None, help="scripted episodes on held-out layouts (50)")
    a = p.parse_args(argv)
    skills = [s for s in a.skills.split(",") if s]
    for s in skills:
        if s not in SKILLS:
            p.error(f"--skills: unknown skill {s!r}; accepted: {list(SKILLS)}")
    n_train = a.train or (20 if a.quick else 200)
    n_held = a.heldout or (10 if a.quick else 50)
    n_rand = 10 if a.quick else 50
    n_sps = 300 if a.quick else 2000
    res: dict[str, dict] = {k: {} for k in ("scripted_success", "scripted_heldout", "random_success")}
    res |= {"episodes": {}, "sps_state": {}, "sps_depth64": {}, "failed_layouts": {}, "failed_causes": {}}
    print(f"{'skill':<14}{'scripted train':>16}{'held-out':>10}{'random':>8}{'sps state':>11}{'sps d64':>9}")
    for s in skills:
        tr, f_tr, c_tr = success_rate(s, "train", n_train, True, 0)
        ho, f_ho, c_ho = success_rate(s, "heldout", n_held, True, 100_000)
        rnd, _, _ = success_rate(s, "train", n_rand, False, 200_000)
        sps, sps64 = steps_per_s(s, 0, n_sps), steps_per_s(s, 64, n_sps)
        res["scripted_success"][s], res["scripted_heldout"][s], res["random_success"][s] = tr, ho, rnd
        res["episodes"][s] = {"train": n_train, "heldout": n_held, "random": n_rand}
        res["sps_state"][s], res["sps_depth64"][s] = round(sps, 1), round(sps64, 1)
        res["failed_layouts"][s] = sorted(set(f_tr + f_ho))
        res["failed_causes"][s] = {k: c_tr.get(k, 0) + c_ho.get(k, 0) for k in sorted({*c_tr, *c_ho})}
        print(f"{s:<14}{tr:>15.1%} {ho:>9.1%}{rnd:>8.1%}{sps:>11.0f}{sps64:>9.0f}", flush=True)
    if a.json:
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
