"""Training the dice reader's nets and picking its thresholds: development tools, never
imported by the box (``vision/``, ``device/``, ``web/`` and ``engine/`` import nothing
from here), which runs the exported ONNX files with OpenCV alone.

Run from the repository root as modules, so ``vision`` and ``bench`` import as the
packages they are:

    python -m training.train_dice --out D           # train (needs CPU torch and onnx)
    python -m training.distill_dice --net faces --out D
    python -m training.pick_dice_thresholds         # the project's venv, no torch
    python -m training.compare_dice_models --split holdout --models A B   # side by side
    python -m training.blend_dice_nets BASE TUNED --share 0.5 --out OUT   # needs onnx

Trained nets are written to ``--out`` (by default over the shipped ones in
``vision/dice/models``); ``pick_dice_thresholds`` then writes the thresholds beside
them in ``dice_models.json``.  What was tried and measured on the way to the shipped
nets is in ``docs/experiments/``.
"""

from pathlib import Path

HOLDOUT = Path(__file__).resolve().parent / "dice_holdout.json"
"""The 30 training photos held out to pick the thresholds (drawn once, at seed 7): read
from this record by every script, so no training run, whatever its seed, fits on them."""
