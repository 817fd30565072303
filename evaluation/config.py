"""`EvalConfig`: the typed config of `tpsrl-eval`, from Hydra-style `key=value` overrides.

    tpsrl-eval scenario=tidy_house agent=tp_spa episodes=50 processes=4 videos=2
    tpsrl-eval agent=tp_srl_nonav scripted=pick,place episodes=5
    tpsrl-eval resume=runs/eval/tidy_house-tp_spa-0003        # continue an interrupted run
    tpsrl-eval chain.skill_steps=300                           # agent (skill chaining) fields

Unknown keys, scenarios, agents and skills are refused with the accepted ones listed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from omegaconf import OmegaConf
from omegaconf.errors import OmegaConfBaseException

from evaluation.agent import AgentConfig
from evaluation.episodes import SCENARIOS, scenario_names
from evaluation.policies import AGENTS, DOMAIN_SKILLS
from tpsrl.sim.backend import ARM_SPEEDS

__all__ = ["ConfigError", "EvalConfig", "parse_overrides"]


class ConfigError(ValueError):
    """A bad command-line override; names the key, the value and what is accepted."""


@dataclass
class EvalConfig:
    """One evaluation run: which scenario, agent and episodes, and how to run them."""

    scenario: str = "tidy_house"
    """HAB scenario: tidy_house, prepare_groceries or set_table."""
    agent: str = "tp_spa"
    """Agent variant (evaluation.policies.AGENTS)."""
    episodes: int = 50
    """Number of episodes (the first N of the scenario's set for `seed`)."""
    seed: int = 0
    """Seed of the episode set; episode i depends only on (seed, i)."""
    episodes_file: str = ""
    """A JSON episode file to evaluate instead of generating (its first `episodes` episodes)."""
    processes: int = 0
    """Worker processes; 0: all cores; 1: in-process (serial)."""
    out_dir: str = "runs/eval"
    """Parent directory of run directories (a new one per run)."""
    resume: str = ""
    """A run directory to continue: finished episodes are kept, the rest are run."""
    videos: int = 0
    """Write an mp4 of the first K episodes into the run directory."""
    scripted: str = ""
    """Comma-separated skills that use their scripted controller in a learned agent (e.g. pick,place)."""
    checkpoints: str = ""
    """Comma-separated skill:path checkpoint overrides for a learned agent (e.g. pick:runs/x/latest.pt)."""
    checkpoint_dir: str = ""
    """Where learned skills are picked up by name (<skill>.pt, <skill>_nobase.pt); empty: the shipped
    skills inside the package (`skills/checkpoints/`)."""
    progress: bool = True
    """Show a progress bar (episodes done, success so far, ETA)."""
    chain: AgentConfig = field(default_factory=AgentConfig)
    """How skills are chained (step limits, reset-arm, replans, episode cap)."""

    @property
    def scripted_skills(self) -> tuple[str, ...]:
        return tuple(s.strip() for s in self.scripted.split(",") if s.strip())

    @property
    def checkpoint_map(self) -> dict[str, str]:
        out = {}
        for item in (x.strip() for x in self.checkpoints.split(",") if x.strip()):
            skill, sep, path = item.partition(":")
            if not sep or not path:
                raise ConfigError(
                    f"checkpoints: {item!r} is not skill:path (e.g. pick:runs/pick/a/latest.pt)"
                )
            out[skill.strip()] = path.strip()
        return out

    def validate(self) -> None:
        if self.scenario not in SCENARIOS:
            raise ConfigError(f"scenario: unknown scenario {self.scenario!r}; accepted: {scenario_names()}")
        if self.agent not in AGENTS:
            raise ConfigError(f"agent: unknown agent {self.agent!r}; accepted: {sorted(AGENTS)}")
        skills = DOMAIN_SKILLS[AGENTS[self.agent].domain]
        for s in (*self.scripted_skills, *self.checkpoint_map):
            if s not in skills:
                raise ConfigError(
                    f"scripted: unknown skill {s!r} for agent {self.agent!r}; accepted: {list(skills)}"
                )
        for name in ("episodes",):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name}: {getattr(self, name)} must be >= 1")
        for name in ("processes", "videos"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name}: {getattr(self, name)} must be >= 0")
        for f in fields(AgentConfig):
            v = getattr(self.chain, f.name)
            if not isinstance(v, str) and v < 0:
                raise ConfigError(f"chain.{f.name}: {v} must be >= 0")
        if self.chain.arm_speed not in ARM_SPEEDS:
            raise ConfigError(
                f"chain.arm_speed: {self.chain.arm_speed!r} not accepted; use one of {list(ARM_SPEEDS)}"
            )
        if not (math.isfinite(self.chain.noise_scale) and self.chain.noise_scale > 0):
            raise ConfigError(f"chain.noise_scale: {self.chain.noise_scale} must be a finite number > 0")


def _accepted() -> list[str]:
    top = [f.name for f in fields(EvalConfig) if f.name != "chain"]
    return top + [f"chain.{f.name}" for f in fields(AgentConfig)]


def parse_overrides(argv: list[str]) -> EvalConfig:
    """`key=value` overrides into a validated `EvalConfig`.

    Raises:
        ConfigError: a malformed override, an unknown key (listing the accepted ones) or a bad value.
    """
    for a in argv:
        if "=" not in a or a.startswith("="):
            raise ConfigError(f"argument {a!r}: expected key=value; accepted keys: {_accepted()}")
    base = OmegaConf.structured(EvalConfig)
    try:
        merged = OmegaConf.merge(base, OmegaConf.from_dotlist(argv))
        cfg = OmegaConf.to_object(merged)
    except OmegaConfBaseException as e:
        key = getattr(e, "full_key", None) or "?"
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ConfigError(f"{key}: {first}; accepted keys: {_accepted()}") from None
    assert isinstance(cfg, EvalConfig)
    cfg.validate()
    return cfg
