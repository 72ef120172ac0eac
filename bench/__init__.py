"""Benchmarks run by ``make bench``: each writes its figures to ``bench/results``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def save(results: Path, result: dict[str, Any], show: bool = False) -> dict[str, Any]:
    """Keep one benchmark's figures as JSON (and print them, with ``show``)."""
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(result, indent=2) + "\n")
    if show:
        for key, value in result.items():
            print(f"  {key}: {value}")
    return result
