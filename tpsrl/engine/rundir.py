"""What a run owns on disk: its run directory, claimed atomically, and a temporary directory for the
multiprocessing sockets; what a killed run left behind (partial checkpoints, temporary directories) is
removed by the next run once the process that wrote it is gone.

A run directory is claimed by creating `.tpsrl-run` (holding the claiming pid) with `O_EXCL`, so two runs
started at once never share one: with a timestamped `run.dir` (the `tpsrl-train` default) the second
takes `<dir>-2`, `<dir>-3`, ...; with any other `run.dir` it is refused.
"""

from __future__ import annotations

import multiprocessing.process
import multiprocessing.util
import os
import re
import shutil
import tempfile
from pathlib import Path

from tpsrl.engine import checkpoint as ckpt

CLAIM = ".tpsrl-run"
_TIMESTAMPED = re.compile(r"\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$")
_PARTIAL = re.compile(r"^\..+\.tmp(\d+)$")
_TEMP_PREFIX = "tpsrl-"
_SOCKET_PATH_MAX = 107  # AF_UNIX path limit on Linux, less the terminating NUL
_SOCKET_SUFFIX = len("/pymp-xxxxxxxx/listener-xxxxxxxx")


class RunDirError(RuntimeError):
    """The run directory cannot be used as asked (exists without resume, or resume without checkpoint)."""


class _Taken(Exception):
    """The directory belongs to another run (claimed, or not empty)."""


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def claim_run_dir(path: Path, resume: bool) -> Path:
    """The run directory to use: `path` when resuming (it must hold a checkpoint), else `path` claimed
    for this process, or the first free `path-K` when `path` ends in a timestamp and was taken."""
    _check_not_file(path)
    if resume:
        latest = path / "checkpoints" / ckpt.LATEST
        if not latest.exists():
            raise RunDirError(
                f"run.resume=true but {latest} does not exist; start a new run with run.resume=false"
            )
        remove_partial_checkpoints(path / "checkpoints")
        return path
    candidates = [path]
    if _TIMESTAMPED.search(path.name):
        candidates += [path.with_name(f"{path.name}-{k}") for k in range(2, 100)]
    for candidate in candidates:
        try:
            _claim(candidate)
            return candidate
        except _Taken:
            continue
    raise RunDirError(
        f"run.dir={str(path)!r}: the directory already exists and is not empty (or another run is starting "
        "in it); pass run.resume=true to continue that run or choose a new run.dir"
    )


def _check_not_file(path: Path) -> None:
    for p in (path, *path.parents):
        if p.exists() and not p.is_dir():
            raise RunDirError(f"run.dir={str(path)!r}: {p} is a file; accepted: a directory path")


def _claim(path: Path) -> None:
    _check_not_file(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RunDirError(f"run.dir={str(path)!r} cannot be created: {e.strerror or e}") from None
    marker = path / CLAIM
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        if not _stale_claim(path):
            raise _Taken from None
        marker.unlink(missing_ok=True)
        return _claim(path)
    except OSError as e:
        raise RunDirError(f"run.dir={str(path)!r} cannot be written: {e.strerror or e}") from None
    with os.fdopen(fd, "w") as f:
        f.write(str(os.getpid()))
    if any(p.name != CLAIM for p in path.iterdir()):
        marker.unlink(missing_ok=True)
        raise _Taken


def _stale_claim(path: Path) -> bool:
    """A claim whose process is gone, on a directory holding nothing else (a run killed at start-up)."""
    try:
        pid = int((path / CLAIM).read_text().strip() or "0")
    except (OSError, ValueError):
        return False
    return pid > 0 and not pid_alive(pid) and all(p.name == CLAIM for p in path.iterdir())


def remove_partial_checkpoints(directory: Path) -> list[Path]:
    """Deletes temporary checkpoint files (`.<name>.tmp<pid>`) whose writing process is gone."""
    removed: list[Path] = []
    if not directory.is_dir():
        return removed
    for p in directory.iterdir():
        m = _PARTIAL.match(p.name)
        if m and not pid_alive(int(m.group(1))):
            p.unlink(missing_ok=True)
            removed.append(p)
    return removed


def use_run_temp_dir() -> Path | None:
    """Points multiprocessing's temporary directory (the forkserver's socket lives there) at
    `$TMPDIR/tpsrl-<pid>/`, removed at exit, after removing those of processes that are gone (a trainer
    killed with SIGKILL cannot remove its own). Does nothing once multiprocessing has chosen one, or when
    `$TMPDIR` is too long for a socket path under it (multiprocessing's own choice is kept then)."""
    config = multiprocessing.process.current_process()._config  # type: ignore[attr-defined]
    if config.get("tempdir") is not None:
        return None
    root = Path(tempfile.gettempdir())
    remove_stale_temp_dirs(root)
    own = root / f"{_TEMP_PREFIX}{os.getpid()}"
    if len(str(own)) + _SOCKET_SUFFIX > _SOCKET_PATH_MAX:  # the forkserver's AF_UNIX address would not fit
        return None
    own.mkdir(mode=0o700, exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix="pymp-", dir=own))
    config["tempdir"] = str(path)
    multiprocessing.util.Finalize(
        None, shutil.rmtree, args=(str(own),), kwargs={"ignore_errors": True}, exitpriority=-100
    )
    return path


def remove_stale_temp_dirs(root: Path) -> list[Path]:
    """Deletes this user's `tpsrl-<pid>` directories in `root` whose process is gone."""
    removed = []
    for p in root.glob(f"{_TEMP_PREFIX}[0-9]*"):
        pid = p.name[len(_TEMP_PREFIX) :]
        if pid.isdigit() and not pid_alive(int(pid)) and _owned(p):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def _owned(path: Path) -> bool:
    try:
        return path.stat().st_uid == os.getuid()
    except OSError:
        return False
