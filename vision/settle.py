"""Turning the camera's frame stream into one frame per roll.

The dice reader must see each roll exactly once: not while dice tumble, not while a
hand is over the tray, and not again while the same dice just lie there. The detector
works on small copies of the frames, with each colour channel divided by its median
so that auto-exposure flicker and lamps dimming do not look like change:

- *still*: the scene has not changed for ``settle_s`` compared with an anchor frame
  taken when the motion stopped. Comparing with a fixed anchor, not only the previous
  frame, also catches a die creeping slowly to rest at any frame rate.
- *changed*: the still scene differs from the last frame handed out (the reference),
  by at least one die's worth of pixels. A partial re-roll of one die is a change; a
  hand that waved over the tray and left is not.
- *occluded*: a large, thick change reaching in from the image border (but not most of
  the view) is an arm, not dice; the detector waits for it to leave. If it stays (the
  tray was pushed, a lamp went on) it is accepted as the new scene after
  ``occluded_timeout_s``.

A shadow (someone leaning over the tray) is not a change: it darkens smoothly and keeps
colours, so the per-pixel difference ignores smooth brightness ratios shallower than
``opaque_ratio``. Per-pixel thresholds adapt to the measured camera noise, and while the
tray is still and unchanged the reference follows slow light changes.

Cost: one comparison per frame (with the anchor); the reference is compared only once
per still period.

It lives at ``vision/`` top level, beside the readers, not in ``vision/camera/``: it
reads frames from any source (a camera, a replay, a test's composed scenes) and knows
nothing of how they were captured, and the camera package needs nothing of it.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Literal

import cv2
import numpy as np

State = Literal["moving", "still"]

GREY_MID = 128.0
MAD_TO_SIGMA = 1.4826
"""Median absolute deviation times this estimates a Gaussian noise's sigma."""
SUM_CHANNELS = np.full((1, 3), 1.0 / 3.0, np.float32)
"""cv2.transform matrix giving each pixel's mean of its three channels."""
NOISE_WINDOW_S = 10.0
NOISE_QUANTILE = 25
"""The camera noise is the low quartile of the frame-to-anchor median differences seen
over the last ten seconds: the tray is still most of the time, and any frame whose
median pixel changed (an arm over half the view, a new photo) is never the low quartile."""


class SettleDetector:
    """Feed every camera frame; get back the frame once per settled change of the tray.

    Parameters are in seconds at the camera's ``fps`` (defaults suit 10-30 fps) or in
    pixels of a ``work_width`` wide copy (frames are shrunk by a whole factor to at least
    that width, and pixel counts scaled to match):

    - ``settle_s``: how long the tray must be still before its frame is handed out. A
      quarter second: dice that stopped stay put, and a die still creeping or rocking
      moves against the anchor within it; at 30 fps that is 8 frames, and the frames from
      dice at rest to the reading fell from 16 to 6 of the replay's (``bench.settle``);
      the game-turn scenes of tests/vision/test_settle.py pass at 10 and 30 fps;
    - ``occluded_timeout_s``: how long a large change touching the border (an arm) is
      waited out before being accepted as the new scene;
    - ``min_area``: changed work pixels that count as a change (a 12 px die at 640 px
      covers ~23): taking one die away from a tray photo changes more than this, even a
      white die on the white tray, and still frames with strong sensor noise change none;
    - ``min_level``: the smallest grey-level difference (after brightness
      normalisation, 0-255) counted as changed;
    - ``noise_k``: on a noisy camera the level is raised to this many times the noise
      learned from still frames (with strong sensor noise every die of the test photos is
      still seen leaving; much higher, white dice in dim light start to be missed);
    - ``arm_width``, ``arm_fraction``: a changed region touching the border, thicker
      than ``arm_width`` of the image width (dice are thinner) and whose thick part
      covers ``arm_fraction`` of the image, is taken for an arm;
    - ``scene_fraction``: when this share of the view changed, it is not an arm but a
      new scene (camera or tray moved, another photo replayed): read at once;
    - ``shadow_scale``, ``opaque_ratio``: brightness changes smoother than this share
      of the width and shallower than this ratio are shadows, not change;
    - ``report_first``: hand out the first still scene after start or ``reset`` (so the
      box reads what is already in the tray), instead of only taking it as reference.
    """

    def __init__(
        self,
        fps: float = 15.0,
        settle_s: float = 0.25,
        occluded_timeout_s: float = 5.0,
        work_width: int = 256,
        min_area: int = 10,
        min_level: float = 20.0,
        noise_k: float = 3.0,
        arm_width: float = 0.06,
        arm_fraction: float = 0.01,
        scene_fraction: float = 0.5,
        shadow_scale: float = 0.12,
        opaque_ratio: float = 1.5,
        report_first: bool = True,
    ) -> None:
        self.settle_frames = max(2, round(settle_s * fps))
        self.occluded_frames = max(1, round(occluded_timeout_s * fps))
        self.work_width = work_width
        self.min_area = min_area
        self.min_level = min_level
        self.noise_k = noise_k
        self.arm_width = arm_width
        self.arm_fraction = arm_fraction
        self.scene_fraction = scene_fraction
        self.shadow_scale = shadow_scale
        self.opaque_ratio = opaque_ratio
        self.report_first = report_first
        self._kernel = np.ones((2, 2), np.uint8)
        self._min_pixels = float(min_area)
        self._noise_samples: deque[float] = deque(maxlen=max(10, round(NOISE_WINDOW_S * fps)))
        self.reset()

    def reset(self) -> None:
        """Forget the reference and any motion: the next still scene is handed out again
        (if ``report_first``), e.g. after the host undid the last reading."""
        self._anchor: np.ndarray | None = None
        self._reference: np.ndarray | None = None
        self._still_count = 0
        self._state: State = "moving"

    @property
    def state(self) -> State:
        """``"still"`` once the tray has settled and no arm is in view, else ``"moving"``."""
        return self._state

    def feed(self, frame: np.ndarray) -> np.ndarray | None:
        """Take the next camera frame; return it if it is the settled frame of a new roll."""
        small = self._prepare(frame)
        if self._anchor is None or self._anchor.shape != small.shape:
            self.reset()
            self._anchor = small
            self._min_pixels = self.min_area * (small.shape[1] / self.work_width) ** 2
            return None
        if cv2.countNonZero(self._changed_mask(self._anchor, small, learn_noise=True)) >= self._min_pixels:
            self._anchor = small
            self._still_count = 0
            self._state = "moving"
            return None
        self._still_count += 1
        settled_for = self._still_count - self.settle_frames
        if settled_for == 0 or (settled_for == self.occluded_frames and self._state == "moving"):
            return frame if self._settled(small, first_look=settled_for == 0) else None
        return None

    def _settled(self, small: np.ndarray, first_look: bool) -> bool:
        """Decide about a still scene: True exactly when it is a new one to hand out.

        Called once when the tray has been still for ``settle_s`` and, if an arm was in
        view then, once more after ``occluded_timeout_s``: a scene that does not move
        cannot change its verdict in between, so no frame is compared twice for nothing.
        """
        if self._reference is None:
            self._reference = small
            self._state = "still"
            return self.report_first
        changed = self._changed_mask(self._reference, small)
        changed_pixels = cv2.countNonZero(changed)
        if changed_pixels < self._min_pixels:
            self._reference = small  # the same dice: follow slow changes of the light
            self._state = "still"
            return False
        if first_look and changed_pixels < self.scene_fraction * changed.size and self._arm_in_view(changed):
            self._state = "moving"
            return False
        self._reference = small
        self._state = "still"
        return True

    def _prepare(self, frame: np.ndarray) -> np.ndarray:
        """Small, smoothed colour copy with each channel's median brought to mid-grey.

        Per-channel normalisation cancels exposure flicker and white-balance drift alike.
        Colour is kept because a hand differs from a white tray more in hue than in grey.
        """
        factor = max(1, frame.shape[1] // self.work_width)  # whole factors: INTER_AREA is 10x faster
        small = cv2.resize(frame, None, fx=1.0 / factor, fy=1.0 / factor, interpolation=cv2.INTER_AREA)
        if small.ndim == 2:
            small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
        small = cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)
        medians = np.median(small[::4, ::4].reshape(-1, 3), axis=0)
        return small * (GREY_MID / np.maximum(medians, 1.0)).astype(np.float32)

    def _arm_in_view(self, changed: np.ndarray) -> bool:
        """Whether the change includes a thick region reaching in from the border: an arm.

        Eroding by an arm's minimum thickness removes dice, dice pairs and the thin edge
        lines a slightly moved tray leaves, so those are read at once, not waited out.
        """
        size = max(3, round(self.arm_width * changed.shape[1]))
        core = cv2.erode(changed, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
        return _largest_border_region(core) >= self.arm_fraction * changed.size

    def _changed_mask(self, before: np.ndarray, after: np.ndarray, learn_noise: bool = False) -> np.ndarray:
        """Pixels that changed between two work frames by more than camera noise explains."""
        diff = self._difference(before, after)
        if learn_noise:
            self._noise_samples.append(float(np.median(diff[::4, ::4])))
        mask = (diff > self._level()).astype(np.uint8)
        return cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._kernel)

    def _difference(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """Per-pixel change in grey levels that a shadow does not cause.

        A shadow (a player leaning over the tray) multiplies the light smoothly and keeps
        colours. So the difference is the largest of: the colour change once brightness is
        matched; the sharp part of the brightness ratio (dice and pips are small, shadows
        are smooth); and any brightness change of more than ``opaque_ratio`` (a dark sleeve
        is opaque, a shadow on a lit tray is not that deep).
        """
        bright_before = cv2.transform(before, SUM_CHANNELS) + 1.0
        bright_after = cv2.transform(after, SUM_CHANNELS) + 1.0
        ratio = bright_after / bright_before
        log_ratio = cv2.log(ratio)
        matched = before * cv2.merge([ratio] * 3)
        blue, green, red = cv2.split(cv2.absdiff(matched, after))
        colour = cv2.max(cv2.max(blue, green), red)
        # Ratios are noisy where it is dark; weighting by brightness turns them back into
        # grey levels, in which the camera noise is learned.
        darker = cv2.min(bright_before, bright_after)
        size = max(3, round(self.shadow_scale * before.shape[1])) | 1
        sharp = cv2.absdiff(log_ratio, cv2.blur(log_ratio, (size, size))) * darker
        step = cv2.absdiff(bright_after, bright_before)
        opaque = np.where(np.abs(log_ratio) > math.log(self.opaque_ratio), step, 0.0).astype(np.float32)
        return cv2.max(cv2.max(colour, sharp), opaque)

    def _level(self) -> float:
        """Grey-level change that counts: ``min_level``, or more on a noisy camera."""
        if not self._noise_samples:
            return self.min_level
        noise = MAD_TO_SIGMA * float(np.percentile(self._noise_samples, NOISE_QUANTILE))
        return max(self.min_level, self.noise_k * noise)


def _largest_border_region(mask: np.ndarray) -> int:
    """Area of the largest region of ``mask`` touching the image edge (where arms come from)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    edges = np.concatenate((labels[0], labels[-1], labels[:, 0], labels[:, -1]))
    touching = [int(stats[label, cv2.CC_STAT_AREA]) for label in np.unique(edges) if label > 0]
    return max(touching, default=0)
