"""Read the benchmark's sets with several trained model folders side by side.

Each folder holds a ``dice_detector.onnx``, a ``dice_faces.onnx`` and their
``dice_models.json`` (thresholds), as ``vision/dice/models`` does.  Every frame of a
set is made once and read by the box's own ``read_dice`` with each folder's models in
turn, so a comparison of nets costs one making of the scenes (the 4000 px phone
scenes take longer to draw than to read).  Run in the project's venv::

    python -m training.compare_dice_models --split holdout --models A B --json out.json

``--split holdout`` reads the 30 held-out *train* photos (``training.HOLDOUT``, never
fitted), the set to choose nets on; ``--split test`` reads the test split as
``make bench`` does (its variations and scenes, same seeds), to report, never to
tune.  Times are not measured here: ``make bench`` measures them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from bench.dice import Label, Score, data_dir, load_labels
from bench.dice_scenes import SCENES, on_table
from bench.dice_variations import VARIANTS
from training import HOLDOUT
from training.pick_dice_thresholds import OTHER_TABLES, use

KEEP = ("dice", "right", "wrong", "unsure", "missed", "extra", "extra_unsure", "read_right_pct", "wrong_value_pct")


def sets(split: str) -> dict[str, object]:
    """Set name -> how a photo and its labels become that set's frame."""
    out: dict[str, object] = {"as photographed": lambda f, labels: (f, labels)}
    out.update(VARIANTS)
    out.update(SCENES)
    if split == "holdout":
        for k, table in enumerate(OTHER_TABLES):
            out[f"calibration table: {table.__name__}"] = lambda f, labels, t=table, k=k: on_table(f, labels, t, k)
    return out


def photos(split: str, limit: int | None) -> Iterator[tuple[str, np.ndarray, list[Label]]]:
    tray = data_dir() / "dice-tray"
    if split == "holdout":
        labels = load_labels(tray, "train", set(json.loads(HOLDOUT.read_text())))
    else:
        labels = load_labels(tray, "test")
    for name in sorted(labels)[:limit]:
        yield name, cv2.imread(str(tray / "images" / name)), labels[name]


def compare(split: str, models: list[Path], only: list[str] | None, limit: int | None) -> dict[str, dict[str, dict]]:
    """Set -> folder -> tallies (``Score.summary``, KEEP only)."""
    from vision.dice import read_dice

    cv2.setNumThreads(1)
    shots = list(photos(split, limit))
    result: dict[str, dict[str, dict]] = {}
    for set_name, make in sets(split).items():
        if only and not any(o in set_name for o in only):
            continue
        frames = [(name, *make(photo, labels)) for name, photo, labels in shots]  # type: ignore[operator]
        result[set_name] = {}
        for folder in models:
            use(folder)
            score = Score()
            for name, frame, labels in frames:
                score.add(name, labels, [(d.value, d.x, d.y) for d in read_dice(frame).dice])
            result[set_name][str(folder)] = {k: v for k, v in score.summary().items() if k in KEEP}
            f = result[set_name][str(folder)]
            print(
                f"{set_name} | {folder}: {f['right']} right, {f['wrong']} wrong, {f['unsure']} unsure,"
                f" {f['missed']} missed, {f['extra']} extra ({f['extra_unsure']} unsure) of {f['dice']}",
                flush=True,
            )
    return result


def table(result: dict[str, dict[str, dict]]) -> list[str]:
    """A markdown table: one row a set, for each folder right / wrong / unsure / missed / extra (unsure)."""
    folders = list(next(iter(result.values())))
    lines = [
        "| set | dice | "
        + " | ".join(f"{Path(f).name}: right / wrong / unsure / missed / extra (unsure)" for f in folders)
        + " |",
        "| --- | --- | " + " | ".join("---" for _ in folders) + " |",
    ]
    for set_name, by in result.items():
        cells = [
            f"{f['right']} / {f['wrong']} ({f['wrong_value_pct']}%) / {f['unsure']} / {f['missed']} / {f['extra']} ({f['extra_unsure']})"
            for f in by.values()
        ]
        lines.append(f"| {set_name} | {next(iter(by.values()))['dice']} | " + " | ".join(cells) + " |")
    total = {f: {k: sum(by[f][k] for by in result.values()) for k in KEEP[:7]} for f in folders}
    lines.append(
        "| all sets | "
        + str(total[folders[0]]["dice"])
        + " | "
        + " | ".join(
            f"{t['right']} / {t['wrong']} / {t['unsure']} / {t['missed']} / {t['extra']} ({t['extra_unsure']})"
            for t in total.values()
        )
        + " |"
    )
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--split", choices=("holdout", "test"), required=True)
    ap.add_argument("--models", type=Path, nargs="+", required=True)
    ap.add_argument("--sets", nargs="*", help="only the sets whose names contain one of these")
    ap.add_argument("--photos", type=int, help="only the first N photos")
    ap.add_argument("--json", type=Path, help="write the tallies here")
    args = ap.parse_args()
    result = compare(args.split, args.models, args.sets, args.photos)
    print("\n".join(table(result)))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
