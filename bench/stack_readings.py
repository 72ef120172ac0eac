"""Every reading of the shared photo sets, to compare two numpy/OpenCV stacks.

The Pi install pins numpy<2 and OpenCV 4.11 (pyproject's ``pi`` extra) while a laptop
gets the newest of both; the readers must read the same on either. Run the dump under
each stack's Python, then compare::

    python -m bench.stack_readings dump np1.jsonl     # e.g. a venv with numpy 1.24.2
    python -m bench.stack_readings dump np2.jsonl
    python -m bench.stack_readings compare np1.jsonl np2.jsonl

The dump holds all 250 dice-tray photos and the cards-set test photos read against a
deck enrolled from its enrol photos.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from bench.cards import GRID, load_labels
from bench.dice import data_dir
from vision.cards import Catalog, read_cards
from vision.dice import read_dice


def dump(out: Path) -> None:
    cv2.setNumThreads(1)
    data = data_dir()
    with out.open("w") as lines:
        lines.write(json.dumps({"numpy": np.__version__, "cv2": cv2.__version__}) + "\n")
        for photo in sorted((data / "dice-tray" / "images").glob("*.jpg")):
            lines.write(
                json.dumps({"photo": photo.name, "dice": read_dice(cv2.imread(str(photo))).to_json()["dice"]}) + "\n"
            )
        labels = load_labels(data / "cards-set")
        load = lambda name: cv2.imread(str(data / "cards-set" / "images" / name))  # noqa: E731
        with tempfile.TemporaryDirectory() as folder:
            catalog = Catalog(Path(folder) / "deck")
            for name, (use, names) in sorted(labels.items()):
                if use == "enroll":
                    catalog.enroll_grid(load(name), *GRID, names)
            for name, (use, _) in sorted(labels.items()):
                if use == "test":
                    lines.write(
                        json.dumps({"photo": name, "cards": [c.to_json() for c in read_cards(load(name), catalog)]})
                        + "\n"
                    )


def compare(first: Path, second: Path) -> int:
    """Prints whether values and positions agree, and how far the confidences drift."""
    a, b = ([json.loads(line) for line in path.open()] for path in (first, second))
    print(f"{a[0]} vs {b[0]}")
    differ, items, drift = 0, 0, 0.0
    for x, y in zip(a[1:], b[1:], strict=True):
        kind = "dice" if "dice" in x else "cards"
        for p, q in zip(x[kind], y[kind], strict=True):
            items += 1
            drift = max(drift, abs(p["confidence"] - q["confidence"]))
            differ += {k: v for k, v in p.items() if k != "confidence"} != {
                k: v for k, v in q.items() if k != "confidence"
            }
    print(
        f"{len(a) - 1} photos, {items} dice and cards: {differ} read differently "
        f"(value, unsure or position), confidence differs by at most {drift:.3f}"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"]:
        dump(Path(sys.argv[2]))
    else:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
