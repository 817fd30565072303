"""The quickstart's demo, the simulator benchmark's JSON contract, and the render command."""

from __future__ import annotations

import json

import pytest

from tpsrl.demo import DemoConfig, run_demo
from tpsrl.sim import bench
from tpsrl.sim.mujoco import render_cli


def test_demo_picks_and_places_and_never_overwrites(tmp_path) -> None:
    cfg = DemoConfig(seed=0, video=False, out_dir=str(tmp_path))
    s = run_demo(cfg)
    assert s["picked"] and s["placed_within_0.15m"], s
    assert (tmp_path / s["out_dir"].split("/")[-1] / "summary.json").exists()
    s2 = run_demo(DemoConfig(seed=1, video=False, out_dir=str(tmp_path), max_steps=50))
    assert s2["out_dir"] != s["out_dir"]  # a second run gets its own folder
    assert (
        json.loads((tmp_path / s["out_dir"].split("/")[-1] / "summary.json").read_text())["steps"]
        == s["steps"]
    )


def test_sim_bench_json_contract(capsys) -> None:
    assert bench.main(["--steps", "20", "--json"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    for key in (
        "steps_per_s_no_depth",
        "steps_per_s_depth64",
        "steps_per_s_depth128",
        "steps_per_s_clutter30",
    ):
        assert figures[key] > 0


def test_render_refuses_to_overwrite(tmp_path) -> None:
    (tmp_path / "overview_layout1.png").write_bytes(b"mine")
    assert render_cli.main(["--layout", "1", "--out", str(tmp_path)]) == 2
    assert (tmp_path / "overview_layout1.png").read_bytes() == b"mine"


@pytest.mark.parametrize("bad", [["--steps", "x"]])
def test_sim_bench_rejects_bad_args(bad: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(bad)
