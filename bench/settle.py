"""From dice at rest to a reading: the settle window in frames, and what watching costs.

The replay camera at 30 fps rolls the bundled tray photos (dice tumbling into each, then
held still with sensor noise); for every roll the frames from the first still frame to
the frame the settle detector hands out are counted, for the detector's earlier 0.6 s
window and for today's. Then, in one run on the same frames: the settle detector's cost
per frame on the full 1280x720 frame (a USB webcam), on the 256x144 low-resolution
stream a Pi camera gives it (``vision.camera.pi.motion_size``), and the dice reader's
on the full frame. Writes bench/results/settle.json.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from bench import save
from vision.camera.pi import motion_size
from vision.camera.replay import ReplayCamera
from vision.dice.read import read_dice
from vision.settle import SettleDetector

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "settle.json"
PHOTOS = ROOT / "device" / "demo_tray"
FPS = 30.0
TUMBLE_S, HOLD_S = 1.2, 2.0
BEFORE_SETTLE_S = 0.6
"""The settle window before the detector ran on the low-resolution stream."""


def frames_from_rest(settle_s: float | None = None, fps: float = FPS) -> list[int]:
    """Per roll of the replay (each photo after the first, which is on the tray at start):
    frames from the first still frame to the settled one, both counted; 0 for a roll the
    detector never handed out."""
    tumble, hold = max(3, round(TUMBLE_S * fps)), max(1, round(HOLD_S * fps))
    photos = sorted(PHOTOS.glob("*.jpg"))
    detector = SettleDetector(fps=fps) if settle_s is None else SettleDetector(fps=fps, settle_s=settle_s)
    counts = []
    with ReplayCamera(PHOTOS, fps=fps, loop=False, tumble_s=TUMBLE_S, hold_s=HOLD_S, paced=False) as camera:
        for _ in range(hold):  # the first photo: on the tray from the start
            detector.feed(camera.read())
        for _ in photos[1:]:
            for _ in range(tumble):
                assert detector.feed(camera.read()) is None, "a frame handed out while the dice tumbled"
            handed = [detector.feed(camera.read()) is not None for _ in range(hold)]
            counts.append(handed.index(True) + 1 if any(handed) else 0)
    return counts


def _per_frame_ms(work, frames: list[np.ndarray], repeats: int) -> float:
    start = time.perf_counter()
    for i in range(repeats):
        work(frames[i % len(frames)])
    return (time.perf_counter() - start) / repeats * 1000


def costs(repeats: int = 300) -> dict[str, float]:
    """Milliseconds per frame, in one run on the same frames (each photo filling a
    1280x720 frame; its shrunk copy standing in for the ISP's low-resolution stream)."""
    full = [
        cv2.resize(cv2.imread(str(p)), (1280, 720), interpolation=cv2.INTER_AREA) for p in sorted(PHOTOS.glob("*.jpg"))
    ]
    small = [cv2.resize(f, motion_size(1280, 720), interpolation=cv2.INTER_AREA) for f in full]
    read_dice(full[0])  # the reader's models load once
    return {
        "settle_full_frame_ms": round(_per_frame_ms(SettleDetector(fps=FPS).feed, full, repeats), 2),
        "settle_motion_stream_ms": round(_per_frame_ms(SettleDetector(fps=FPS).feed, small, repeats), 2),
        "dice_reader_ms": round(_per_frame_ms(read_dice, full, max(5, repeats // 30)), 1),
    }


def main() -> dict:
    before, now = frames_from_rest(BEFORE_SETTLE_S), frames_from_rest()
    cost = costs()
    result = {
        "fps": FPS,
        "frames_rest_to_result_before": before,
        "frames_rest_to_result_now": now,
        "median_before": statistics.median(before),
        "median_now": statistics.median(now),
        **cost,
        "settle_over_reader_motion_stream": round(cost["settle_motion_stream_ms"] / cost["dice_reader_ms"], 3),
        "settle_over_reader_full_frame": round(cost["settle_full_frame_ms"] / cost["dice_reader_ms"], 3),
    }
    return save(RESULTS, result, show=True)


if __name__ == "__main__":
    main()
