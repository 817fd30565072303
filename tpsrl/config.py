"""Hydra wiring shared by the entry points: typed dataclass schemas composed with YAML presets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"


def hydra_main(schema: type[T], name: str, task: Callable[[T], None]) -> None:
    """Run `task` under Hydra with `configs/<name>.yaml` over the dataclass `schema` (`<name>_schema`)."""
    import hydra
    from hydra.core.config_store import ConfigStore
    from omegaconf import OmegaConf

    ConfigStore.instance().store(name=f"{name}_schema", node=schema)

    def _task(cfg: Any) -> None:
        task(OmegaConf.to_object(cfg))  # a typed `schema` instance, validated by OmegaConf

    hydra.main(version_base="1.3", config_path=str(CONFIG_DIR), config_name=name)(_task)()
