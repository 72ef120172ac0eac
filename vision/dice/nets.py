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

    peak: float = 0.3        # detector heat above which a peak is a die candidate
    not_die: float = 0.5     # classifier P(not a die) above which the candidate is dropped
    sure: float = 0.9        # classifier P(face) below which the value is None


def read_net(path: Path) -> cv2.dnn.Net:
    """An ONNX net on OpenCV's classic dnn engine where there is a choice: OpenCV 5's
    new engine runs these small nets ~30% slower (measured: detector 14.3 vs 10.0 ms,
    12 face patches 10.9 vs 7.9 ms); OpenCV 4 has only the classic engine.

    Faster runtimes were measured and not used, because each breaks the reader's 80
    MB peak memory target. ONNX Runtime 1.32 runs the detector in 7.0 instead of 9.9
    ms and 12 face patches in 4.3 instead of 8.0 ms (the nets of an earlier
    release), but its import alone adds 20-30 MB (peak 88-97 MB). LiteRT 2.3
    (XNNPACK, the nets converted with onnx2tf) runs 8 face patches in 2.7 instead of
    5.5 ms but the detector slower, 8.1 instead of 7.0 ms. With only the face net on
    LiteRT, the test split reads exactly the same and the median reading is 16-27%
    faster (12.7 vs 15.1 ms, then 14.0 vs 19.3 ms: two pairs of runs one after the
    other), but the reader's peak memory is 88.6 MB instead of 74.2 MB (its import
    adds 8-11 MB); classifying in fixed chunks of 4 or 8 patches, without cv2.dnn's
    face net loaded, it still peaks at 85.5-86.3 MB and was 8% faster or 6% slower
    (13.8 and 15.9 vs 15.0 ms). ncnn (converted with pnnx) runs the detector in 4.9
    instead of 6.5 ms and 8 face patches in 2.3 instead of 4.2 ms (1.0.20261020),
    and the test split reads the same (1.0.20250503, which also has a Pi wheel), but
    its import and nets add 13 MB, and in the reader its pool allocators grow to a
    110 MB peak; emptied after each run, they peak at 86-88 MB and the reading is
    slower than on cv2.dnn (22.2 vs 17.6 ms, one run after the other)."""
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
