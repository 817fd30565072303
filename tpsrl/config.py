"""Hydra wiring shared by the entry points: typed dataclass schemas composed with YAML presets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"


def config_dir() -> Path:
    """The repository's `configs/` (entry points run from a checkout installed with `pip install -e .`)."""
    if not CONFIG_DIR.is_dir():
        raise SystemExit(
            f"tpsrl: Hydra presets not found at {CONFIG_DIR}; install tpsrl from a checkout with `pip install -e .`"
        )
    return CONFIG_DIR


def hydra_main(schema: type[T], name: str, task: Callable[[T], None]) -> None:
    """Run `task` under Hydra with `configs/<name>.yaml` over the dataclass `schema` (`<name>_schema`)."""
    import hydra
    from hydra.core.config_store import ConfigStore
    from omegaconf import OmegaConf

    ConfigStore.instance().store(name=f"{name}_schema", node=schema)

    def _task(cfg: Any) -> None:
        task(OmegaConf.to_object(cfg))  # a typed `schema` instance, validated by OmegaConf

    hydra.main(config_path=str(config_dir()), config_name=name)(_task)()
