"""The demo's tray: still until dice are thrown, then a real photo of that many dice."""

from __future__ import annotations

import pytest

from device.cli import DEMO_ROLLS
from vision.camera import CameraError, open_camera
from vision.camera.replay import ThrownTray
from vision.dice import read_dice
from vision.settle import SettleDetector


def settled_frames(camera: ThrownTray, detector: SettleDetector, frames: int) -> list:
    out = []
    for _ in range(frames):
        frame = detector.feed(camera.read())
        if frame is not None:
            out.append(frame)
    return out


def test_the_tray_shows_no_dice_until_thrown_then_exactly_the_dice_asked_for() -> None:
    camera = ThrownTray(DEMO_ROLLS, fps=None, tumble_s=1.0)
    detector = SettleDetector(fps=15)
    assert camera.counts() == [1, 2, 3, 4, 5, 6]
    still = settled_frames(camera, detector, 150)  # ten seconds of an untouched tray
    assert len(still) == 1 and not read_dice(still[0], None).dice  # the first look: empty
    seen = []
    for count in (3, 3, 2, 6):
        assert camera.throw(count)
        rolled = settled_frames(camera, detector, 120)
        assert len(rolled) == 1, count  # one roll, one settled frame
        dice = read_dice(rolled[0], None).dice
        assert len(dice) == count
        seen.append(sorted(d.value for d in dice))
    assert seen[0] != seen[1]  # a re-roll of as many dice is another photo
    assert settled_frames(camera, detector, 150) == []  # and nothing more until the next throw
    camera.close()


def test_a_count_without_a_photo_is_refused_and_a_folder_without_labels_says_so(tmp_path) -> None:
    camera = ThrownTray(DEMO_ROLLS, fps=None)
    assert not camera.throw(7)
    camera.close()
    (tmp_path / "empty.jpg").write_bytes((DEMO_ROLLS / "empty.jpg").read_bytes())
    with pytest.raises(CameraError, match="labels.csv"):
        open_camera(f"thrown:{tmp_path}")
