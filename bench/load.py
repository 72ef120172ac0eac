"""A full table under load: 10 phones and the host, live updates open, each making
5 requests a second against ``familiar demo`` on loopback (issue 24's load test).

The demo box runs its replay camera over the tray photos all the while (it reads a
frame ten times a second and settles on a roll every few seconds).  The host starts a
10-seat Secret Voldemort game, then locust (bench/locustfile.py, headless) plays it for
``FAMILIAR_LOAD_SECONDS`` (600 by default).  Figures: requests, failures, p50/p95/p99
of the player pages (``GET /api/me``) and of all requests, live-update messages, and the
daemon's resident memory at the start and the end.  Writes bench/results/load.json.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

from bench import save
from bench.daemon import free_port, status_kb, wait_http

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "load.json"
SECONDS = int(os.environ.get("FAMILIAR_LOAD_SECONDS", "600"))
PHONES = 10
RATE = 5


def _host(base: str) -> tuple[str, str]:
    """Become the box's host, start the game and return (host token, join code)."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + "/host", timeout=10).read()
    token = next(c.value for c in jar if c.name == "familiar_host")
    seats = [f"Player {i + 1}" for i in range(PHONES)]
    body = json.dumps({"kind": "table.new", "data": {"game": "voldemort", "seats": seats}}).encode()
    req = urllib.request.Request(base + "/api/host/act", body, {"Content-Type": "application/json"})
    opener.open(req, timeout=10).read()
    link = json.loads(opener.open(base + "/api/host/join", timeout=10).read())
    return token, link["url"].rstrip("/").rsplit("/", 1)[-1]


def memory_mb(pid: int) -> dict[str, float]:
    """Resident memory, and its part not shared with other processes (``Pss``: shared
    pages divided among their users; ``private``: the daemon's own), from smaps_rollup:
    RSS counts every page of OpenCV's and numpy's libraries the daemon has touched."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":")[0], line.split()[1]
        fields[name] = int(value) / 1024
    private = fields["Private_Clean"] + fields["Private_Dirty"]
    return {"rss": round(fields["Rss"], 1), "pss": round(fields["Pss"], 1), "private": round(private, 1)}


def _ratios(page: dict[str, float], baseline: dict[str, float]) -> dict[str, float]:
    return {k: round(page[k] / baseline[k], 2) for k in ("p50_ms", "p95_ms", "p99_ms") if baseline[k]}


def _sample_rss(pid: int, every: float, stop: threading.Event, samples: list[float]) -> None:
    """The daemon's resident memory (MB) every ``every`` seconds: flat, or growing?"""
    while not stop.wait(every):
        try:
            samples.append(round(status_kb(pid, "VmRSS") / 1024, 1))
        except (OSError, KeyError):
            return


def _percentiles(rows: list[dict[str, str]], name: str) -> dict[str, float]:
    row = next(r for r in rows if r["Name"] == name)
    return {
        "requests": int(row["Request Count"]),
        "failures": int(row["Failure Count"]),
        "p50_ms": float(row["50%"]),
        "p95_ms": float(row["95%"]),
        "p99_ms": float(row["99%"]),
    }


def main() -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    state = Path(tempfile.mkdtemp(prefix="familiar-load-"))
    daemon = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "demo", "--no-bots", "--port", str(port), "--state", str(state)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_http(base + "/board", 90)
        token, code = _host(base)
        rss_start = status_kb(daemon.pid, "VmRSS")
        memory_start, load_start = memory_mb(daemon.pid), os.getloadavg()
        env = {**os.environ, "FAMILIAR_HOST_TOKEN": token, "FAMILIAR_JOIN_CODE": code, "FAMILIAR_LOAD_RATE": str(RATE)}
        users = PHONES + 1
        prefix = state / "locust"
        samples: list[float] = []
        stop = threading.Event()
        sampler = threading.Thread(target=_sample_rss, args=(daemon.pid, max(SECONDS / 12, 5), stop, samples))
        sampler.start()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "locust",
                "-f",
                str(ROOT / "bench" / "locustfile.py"),
                "--headless",
                "--host",
                base,
                "-u",
                str(users),
                "-r",
                str(users),
                "-t",
                f"{SECONDS}s",
                "--csv",
                str(prefix),
                "--only-summary",
            ],
            cwd=ROOT,
            env=env,
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        stop.set()
        sampler.join()
        rss_end = status_kb(daemon.pid, "VmRSS")
        memory_end, load_end = memory_mb(daemon.pid), os.getloadavg()
        peak = status_kb(daemon.pid, "VmHWM")
        table = json.loads(urllib.request.urlopen(base + "/api/table", timeout=10).read())
    finally:
        daemon.terminate()
        daemon.wait(30)
    with open(f"{prefix}_stats.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    result = {
        "seconds": SECONDS,
        "users": f"{PHONES} phones + host, {RATE} req/s each, live updates open",
        "player_pages": _percentiles(rows, "/api/me"),
        "baseline": _percentiles(rows, "baseline"),
        "player_pages_to_baseline": _ratios(_percentiles(rows, "/api/me"), _percentiles(rows, "baseline")),
        "all_requests": _percentiles(rows, "Aggregated"),
        "load_average_start_end": [round(load_start[0], 1), round(load_end[0], 1)],
        "memory_start_mb": memory_start,
        "memory_end_mb": memory_end,
        "live_update_messages": next((int(r["Request Count"]) for r in rows if r["Name"] == "version"), 0),
        "rss_start_mb": round(rss_start / 1024, 1),
        "rss_end_mb": round(rss_end / 1024, 1),
        "rss_peak_mb": round(peak / 1024, 1),
        "rss_samples_mb": samples,
        "table_version_at_end": table.get("version"),
    }
    return save(RESULTS, result, show=True)


if __name__ == "__main__":
    main()
