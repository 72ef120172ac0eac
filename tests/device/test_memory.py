"""The daemon's start-up settings for native memory (device.memory), in real processes."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from device import memory

ROOT = Path(__file__).resolve().parents[2]
BLAS_THREADS = (
    "import json, threadpoolctl; {imports}; "
    "print(json.dumps([i['num_threads'] for i in threadpoolctl.threadpool_info() if i['internal_api'] == 'openblas']))"
)


def openblas_threads(imports: str) -> list[int]:
    """Each OpenBLAS's thread count in a fresh process after ``imports``."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    code = BLAS_THREADS.format(imports=imports)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS starts no pool on one core")
def test_the_daemon_loads_numpy_and_opencv_without_blas_thread_pools() -> None:
    assert max(openblas_threads("import numpy, cv2")) > 1  # each library's own pool, by default
    threads = openblas_threads("import device.cli, numpy, cv2")
    assert threads and set(threads) == {1}


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_malloc_arenas_are_capped_on_glibc() -> None:
    code = "from device import memory; print(memory.limit_malloc_arenas())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_no_glibc_leaves_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(memory.ctypes, "CDLL", missing)
    assert memory.limit_malloc_arenas() is False
