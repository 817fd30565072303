"""`tpsrl-bench engine` and `tpsrl-bench train`: JSON contracts and argument checks (the figures themselves
are measured, not tested)."""

from __future__ import annotations

import json

import pytest

from tpsrl.engine import bench


def test_engine_bench_json_has_the_ratios_of_the_modes_it_ran(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick", "--num-envs", "4", "--modes", "ver,ver_eager", "--no-sf", "--json"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for key in (
        "sps_pool_only",
        "sps_ver",
        "sps_ver_eager",
        "ver_collect_over_pool_only",
        "ver_over_ver_eager",
    ):
        assert res[key] > 0, key
    assert "ver_over_sync" not in res  # sync did not run


def test_engine_bench_names_an_unknown_mode() -> None:
    with pytest.raises(SystemExit, match="--modes: unknown mode 'fast'"):
        bench.main(["--quick", "--modes", "ver,fast", "--no-sf"])


def test_train_bench_json_reads_training_and_the_workers_against_the_sim_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tpsrl.engine import bench_train

    argv = [
        "--num-envs",
        "2",
        "--rollout-steps",
        "16",
        "--updates",
        "1",
        "--sim-seconds",
        "1",
        "--policy",
        "mlp",
        "--engines",
        "trainer,overlap",
    ]
    assert bench_train.main([*argv, "--json"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert res["engine"] == "trainer" and res["train_sps_mlp"] == res["train_sps"]
    assert res["train_sps_mlp_overlap"] > 0  # the workers act and collect while the learner learns
    assert res["collect_main_cpu_ms_per_step_mlp_overlap"] < res["collect_main_cpu_ms_per_step"]
    assert res["train_over_sim_limit"] == pytest.approx(res["train_sps"] / res["sim_sps_limit"])
    assert res["workers_only_over_sim_limit"] == pytest.approx(res["workers_only_sps"] / res["sim_sps_limit"])
    assert res["train_sps"] > 0 and res["workers_only_sps"] > 0
    # The trainer thread's CPU during collection: positive, and no more than the wall time it spans.
    assert 0 < res["collect_main_cpu_ms_per_step"]
    assert 0 < res["collect_main_busy"] <= 1.05
    assert res["collect_main_busy"] == pytest.approx(
        res["collect_main_cpu_ms_per_step"] * res["train_collect_sps"] / 1e3
    )


def test_train_bench_rejects_an_unknown_engine(capsys: pytest.CaptureFixture[str]) -> None:
    from tpsrl.engine import bench_train

    with pytest.raises(SystemExit):
        bench_train.main(["--engines", "workers,gpu"])
    assert "--engines: unknown gpu" in capsys.readouterr().err
