"""The demo daemon's resident memory while idle, and what it read meanwhile.

Starts ``familiar demo`` (simulated pins, replayed dice photos, real speech to WAV
files) on a free loopback port, waits until the web page answers, lets it run for
``SECONDS`` while the replay camera rolls dice, then reads VmRSS / VmHWM from
/proc.  Writes bench/results/daemon.json.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench import save

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "daemon.json"
SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def wait_http(url: str, timeout: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return time.monotonic() - start
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(url)


def main() -> dict:
    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="familiar-bench-"))
    cmd = [sys.executable, "-m", "device.cli", "demo", "--port", str(port), "--state", str(state)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        startup = wait_http(f"http://127.0.0.1:{port}/board", 60)
        time.sleep(SECONDS)
        rss = status_kb(proc.pid, "VmRSS")
        peak = status_kb(proc.pid, "VmHWM")
        public = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=5).read())
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    wavs = sorted((state / "speech").glob("*.wav"))
    result = {
        "startup_s": round(startup, 2),
        "idle_rss_mb": round(rss / 1024, 1),
        "peak_rss_mb": round(peak / 1024, 1),
        "observed_s": SECONDS,
        "rolls_read": len(public.get("view", {}).get("history", [])),
        "wav_files": len(wavs),
    }
    return save(RESULTS, result, show=True)


if __name__ == "__main__":
    main()
