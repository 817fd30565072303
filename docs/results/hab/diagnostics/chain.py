"""Set-up shared by the chain diagnostics (`falls/`, `nav_stops/`, `arm_starts/`): the shipped `tp_srl`
agent (the variable CHECKPOINTS replaces skill files, as `tpsrl-eval checkpoints=` does), its episode env,
and the held-out episodes start .. start + n - 1 of a scenario (the evaluation's seed-0 set)."""

import os

from evaluation.agent import AgentConfig, HierarchicalAgent, make_episode_env
from evaluation.config import EvalConfig
from evaluation.episodes import generate_episodes
from evaluation.run import prepare
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.env import RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec


def shipped_chain(
    scenario: str, start: int, n: int, chain: AgentConfig | None = None
) -> tuple[HierarchicalAgent, RearrangeEnv, list[EpisodeSpec]]:
    single_thread_acting()
    cfg = EvalConfig(scenario=scenario, agent="tp_srl", checkpoints=os.environ.get("CHECKPOINTS", ""))
    sources, depth = prepare(cfg)
    agent = HierarchicalAgent("tp_srl", sources, chain)
    return agent, make_episode_env(depth), generate_episodes(scenario, start + n, 0)[start:]
