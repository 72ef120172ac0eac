"""``make bench``: run every benchmark, print its figures and write bench/results/*.json.

Each benchmark module exposes ``main() -> dict`` which measures, prints and writes its
own result file; this runner only calls them so one command measures everything.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "bench.dice",
    "bench.taught_dice",
    "bench.cards",
    "bench.cluttered_cards",
    "bench.daemon",
    "bench.settle",
    "bench.long_log",
    "bench.load",
)


def main() -> int:
    """Run each benchmark that exists; a missing data set skips it with a message."""
    for name in BENCHMARKS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            print(f"{name}: not present, skipped")
            continue
        print(f"== {name}")
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
