"""Agent variants and where each skill's policy comes from (scripted or a learned checkpoint, per skill).

`AGENTS` is the plain registry of variants (hab-reference; VER paper Figure 6). A learned skill is loaded
from `skills/checkpoints/<skill>.pt` (`<skill>_nobase.pt` for the no-base variant; nav always moves the
base, so it has one checkpoint), or from a path given per skill. Missing checkpoints are reported
together, with the command that trains each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from skills.learned import load_skill_policy
from skills.policy import SkillPolicy
from skills.registry import TASKS
from skills.scripted import make_scripted
from skills.ship import CHECKPOINT_DIR as SHIPPED_DIR

__all__ = [
    "AGENTS",
    "CHECKPOINT_DIR",
    "AgentSpec",
    "MissingCheckpointError",
    "SkillSources",
    "checkpoint_path",
    "get_agent",
    "skill_sources",
]

CHECKPOINT_DIR = SHIPPED_DIR
"""Where learned skills are picked up by name: the package's shipped skills (`python -m skills.ship`)."""
DOMAIN_SKILLS: dict[str, tuple[str, ...]] = {
    "rearrange": tuple(TASKS),
    "rearrange_nonav": tuple(s for s in TASKS if s != "nav_to_obj"),
}
"""Skill tasks a planner domain can call."""


class MissingCheckpointError(FileNotFoundError):
    """Learned skills whose checkpoints do not exist (yet); names each file and how to train it."""

    def __init__(self, message: str, missing: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.missing = missing
        """The skills without a checkpoint."""


@dataclass(frozen=True)
class AgentSpec:
    """One agent variant: its planner domain and where its skills come from."""

    domain: str
    """Planner domain: "rearrange" (with nav) or "rearrange_nonav" (pick/place move the base)."""
    learned: bool
    """Skills are learned checkpoints (else scripted controllers)."""
    base_movement: bool
    """Manipulation skills command the base (nav always does)."""
    description: str


AGENTS: dict[str, AgentSpec] = {
    "tp_spa": AgentSpec("rearrange", False, True, "task planner + scripted skills (sense-plan-act)"),
    "tp_srl": AgentSpec("rearrange", True, True, "task planner + learned skills with base movement"),
    "tp_srl_nobase": AgentSpec("rearrange", True, False, "task planner + learned skills without base"),
    "tp_srl_nonav": AgentSpec("rearrange_nonav", True, True, "NoNav: no nav skill; pick/place move the base"),
    "tp_srl_nonav_nobase": AgentSpec(
        "rearrange_nonav", True, False, "NoNav with no-base skills: the emergent-navigation contrast"
    ),
}


def get_agent(name: str) -> AgentSpec:
    if name not in AGENTS:
        raise ValueError(f"agent: unknown agent {name!r}; accepted: {sorted(AGENTS)}")
    return AGENTS[name]


def checkpoint_path(skill: str, base_movement: bool, directory: Path = CHECKPOINT_DIR) -> Path:
    """`<directory>/<skill>.pt`, or `<skill>_nobase.pt` for a manipulation skill without base movement."""
    nobase = not base_movement and skill != "nav_to_obj"
    return directory / f"{skill}{'_nobase' if nobase else ''}.pt"


def train_command(skill: str, base_movement: bool) -> str:
    flag = "" if base_movement or skill == "nav_to_obj" else " skill.base_movement=false"
    return f"tpsrl-train skill={skill}{flag}  (then ship it: python -m skills.ship <run dir>)"


@dataclass(frozen=True)
class SkillSources:
    """Per skill: "scripted" or a checkpoint path; `base_movement` per skill as its policy was trained."""

    sources: Mapping[str, str]
    base_movement: Mapping[str, bool]

    def make(self, skill: str) -> SkillPolicy:
        """A fresh policy for `skill` (scripted controller or loaded checkpoint)."""
        src = self.sources.get(skill)
        if src is None:
            raise ValueError(
                f"skill: {skill!r} has no policy in this agent; available: {sorted(self.sources)}"
            )
        if src == "scripted":
            return make_scripted(skill)
        return load_skill_policy(src, skill=skill)


def skill_sources(
    agent: str,
    scripted: tuple[str, ...] = (),
    checkpoints: Mapping[str, str] | None = None,
    needed: tuple[str, ...] | None = None,
    directory: Path = CHECKPOINT_DIR,
) -> SkillSources:
    """The per-skill policy mapping of `agent`.

    Args:
        agent: a key of AGENTS.
        scripted: skills forced to their scripted controller (e.g. NoNav's sanity run: pick, place).
        checkpoints: skill -> checkpoint path overrides.
        needed: the skills to check for checkpoints (default: every skill of the agent's domain).

    Raises:
        MissingCheckpointError: learned skills without a checkpoint file, each with its train command.
    """
    spec = get_agent(agent)
    skills = DOMAIN_SKILLS[spec.domain]
    for s in (*scripted, *(checkpoints or {})):
        if s not in skills:
            raise ValueError(f"skill {s!r} is not a skill of agent {agent!r}; accepted: {list(skills)}")
    sources: dict[str, str] = {}
    for s in skills:
        if not spec.learned or s in scripted:
            sources[s] = "scripted"
        else:
            sources[s] = str((checkpoints or {}).get(s) or checkpoint_path(s, spec.base_movement, directory))
    base = {s: spec.base_movement or s == "nav_to_obj" for s in skills}
    _check_files(agent, sources, base, needed or skills)
    return SkillSources(sources, base)


def _check_files(
    agent: str, sources: Mapping[str, str], base: Mapping[str, bool], needed: tuple[str, ...]
) -> None:
    missing = [
        s for s in needed if s in sources and sources[s] != "scripted" and not Path(sources[s]).exists()
    ]
    if missing:
        lines = "\n".join(
            f"  {s}: {sources[s]} is missing; train it: {train_command(s, base[s])}" for s in missing
        )
        raise MissingCheckpointError(
            f"agent {agent!r} needs learned checkpoints that do not exist:\n{lines}\n"
            f"(or run the scripted skills in their place: scripted={','.join(missing)})",
            tuple(missing),
        )
