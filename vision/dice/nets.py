"""The dice reader's two networks and its decision thresholds, as shipped in
``vision/dice/models`` (trained and picked by the scripts in ``training/``): loaded once a process."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2

MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class Thresholds:
    """Decision thresholds, picked on held-out training photos (dice_models.json)."""

    peak: float = 0.3  # detector heat above which a peak is a die candidate
    not_die: float = 0.5  # classifier P(not a die) above which the candidate is dropped
    sure: float = 0.9  # classifier P(face) below which the value is None
    small: float = 0.0  # box side (frame pixels) under which a die is small...
    sure_small: float = 0.9  # ...and needs at least this P(face) to be read

    def sure_for(self, side: float) -> float:
        """The face share a die of this box side (frame pixels) needs to be read.

        A die only a dozen pixels across is enlarged to the classifier's patch from
        little more than its pips: on the held-out photos half the sure wrong values
        came from dice under 20 px, 6% of the sure dice.  Holding dice under
        18 px to 0.91 there took the wrong values from 9 to 6 and the values where no
        die lies from 23 to 15, for 38 right values left unsure; picked like ``sure``
        (``training.pick_dice_thresholds``; ``docs/experiments/2026-12-dice-not-a-die.md``)."""
        return max(self.sure, self.sure_small) if side < self.small else self.sure


def read_net(path: Path) -> cv2.dnn.Net:
    """An ONNX net on OpenCV's classic dnn engine where there is a choice: OpenCV 5's
    new engine runs these small nets slower, and OpenCV 4 has only the classic engine.

    cv2.dnn is the runtime although faster ones exist (ONNX Runtime, LiteRT, ncnn): each
    of those breaks the reader's 100 MB peak memory target (ONNX Runtime runs the nets
    twice as fast, a whole reading only 1.4 times, and adds ~35 MB), and cv2.dnn needs
    no package beyond OpenCV.  Their measurements are in
    ``docs/experiments/2026-11-dice-reader.md`` and ``2026-12-dice-pipeline.md``."""
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if classic is not None:
        return cv2.dnn.readNetFromONNX(str(path), engine=classic)
    return cv2.dnn.readNetFromONNX(str(path))


@lru_cache(maxsize=1)
def nets() -> tuple[cv2.dnn.Net, cv2.dnn.Net]:
    """Load both ONNX nets once per process (a few hundred kB, ~10 ms)."""
    return read_net(MODELS / "dice_detector.onnx"), read_net(MODELS / "dice_faces.onnx")


@lru_cache(maxsize=1)
def thresholds() -> Thresholds:
    """The thresholds shipped with the models, or the defaults if none were picked."""
    path = MODELS / "dice_models.json"
    if not path.exists():
        return Thresholds()
    data = json.loads(path.read_text())
    return Thresholds(**{k: float(v) for k, v in data.get("thresholds", {}).items()})
