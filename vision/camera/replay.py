"""Replay of photos or a video as if they came from the camera: the demo and the tests.

A real video already contains motion and is replayed as it is. Still photos are not a
camera stream: a real camera sees the dice tumble, a hand throw them, then stillness.
With ``simulate_rolls`` each new photo therefore arrives through a few "tumbling"
frames (the photo sliding in, motion-blurred, cross-faded from the previous one, with
an arm sweeping across), then is held still with sensor noise, so that the settle
detector downstream sees what it sees at a real table: motion, then a still tray.
"""

from __future__ import annotations

import csv
import math
import queue
import time
from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.camera.base import Camera, CameraError, ReplayFinished, as_bgr
from vision.images import ImageError, load_image

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v"})
SKIN_BGR = (115, 150, 205)
"""A mid skin tone for the hand; sleeves (the arm) may be any colour."""


class ReplayCamera(Camera):
    """Frames from a folder of photos (sorted by name), a list of photo paths, or a video.

    ``fps=None`` replays unpaced (as fast as ``read`` is called: tests); otherwise
    ``read`` waits so frames arrive at ``fps``, like a real camera, unless ``paced`` is
    False (a benchmark counting frames at that rate). With ``loop`` the replay starts
    over at the end, else :class:`ReplayFinished` is raised.
    """

    def __init__(
        self,
        source: str | Path | Sequence[str | Path],
        fps: float | None = 15.0,
        loop: bool = True,
        simulate_rolls: bool = True,
        tumble_s: float = 1.2,
        hold_s: float = 4.0,
        noise: float = 2.0,
        seed: int = 0,
        paced: bool = True,
    ) -> None:
        self._paths, self._video = _resolve_source(source)
        self._loop = loop
        self._period = None if not fps or not paced else 1.0 / fps
        rate = fps or 15.0  # unpaced replay still needs frame counts for tumbling and holding
        self._tumble_frames = max(3, round(tumble_s * rate)) if simulate_rolls else 0
        self._hold_frames = max(1, round(hold_s * rate)) if simulate_rolls else 1
        self._rng = np.random.default_rng(seed)
        self._noise = SensorNoise(noise if simulate_rolls else 0.0, self._rng)
        self._next_due: float | None = None
        self._frames: Generator[np.ndarray, None, None] | None = (
            self._video_frames() if self._video else self._photo_frames()
        )
        what = f"video {self._video}" if self._video else f"{len(self._paths)} photos"
        rolls = ", simulated rolls" if simulate_rolls and not self._video else ""
        pace = f" @ {fps:g} fps" if fps else ", unpaced"
        self.description = f"replay of {what}{rolls}{pace}"

    def read(self) -> np.ndarray:
        """The next frame, at the replay's pace; ReplayFinished at the end of a non-looping replay."""
        if self._frames is None:
            raise CameraError("replay: camera is closed")
        try:
            frame = next(self._frames)
        except StopIteration:
            raise ReplayFinished(f"{self.description}: end of replay") from None
        self._wait_for_slot()
        return frame

    def close(self) -> None:
        if self._frames is not None:
            self._frames.close()  # a video generator releases its VideoCapture here
            self._frames = None

    def _wait_for_slot(self) -> None:
        """Sleep until this frame is due; after a stall, restart the clock instead of bursting."""
        if self._period is None:
            return
        now = time.monotonic()
        if self._next_due is not None and self._next_due > now:
            time.sleep(self._next_due - now)
            now = self._next_due
        self._next_due = now + self._period

    def _photo_frames(self) -> Generator[np.ndarray, None, None]:
        previous: np.ndarray | None = None
        while True:
            for path in self._paths:
                photo = _load(path)
                if previous is not None and self._tumble_frames:
                    yield from tumble_frames(previous, photo, self._tumble_frames, self._rng, self._noise)
                for _ in range(self._hold_frames):
                    yield self._noise(photo)
                previous = photo
            if not self._loop:
                return

    def _video_frames(self) -> Generator[np.ndarray, None, None]:
        while True:
            capture = cv2.VideoCapture(str(self._video))
            try:
                count = 0
                ok, frame = capture.read()
                while ok:
                    count += 1
                    yield as_bgr(frame, str(self._video))
                    ok, frame = capture.read()
            finally:
                capture.release()
            if count == 0:
                raise CameraError(f"{self._video}: no frames could be decoded from this video")
            if not self._loop:
                return


class ThrownTray(ReplayCamera):
    """A replayed tray that changes only when dice are thrown: the demo's camera.

    A looping replay "rolls" every few seconds whatever the table is doing, so its photos
    answer rolls nobody made.  This one shows ``empty.jpg`` of ``folder`` (a real tray
    with its dice painted out), held still with sensor noise, until :meth:`throw` asks
    for a roll of so many dice: then it tumbles into a real photo with exactly that many
    (counted in the folder's ``labels.csv``), taking each count's photos in turn, so a
    re-roll never shows the very same dice again.
    """

    EMPTY = "empty.jpg"

    def __init__(self, folder: str | Path, fps: float | None = 15.0, tumble_s: float = 1.2, seed: int = 0) -> None:
        folder = Path(folder)
        self._by_count = photos_by_count(folder)
        self._turns: dict[int, int] = {}
        self._thrown: queue.SimpleQueue[Path] = queue.SimpleQueue()
        super().__init__(folder / self.EMPTY, fps=fps, tumble_s=tumble_s, seed=seed)
        self.description = f"replay of dice thrown on demand, {sum(map(len, self._by_count.values()))} photos"

    def counts(self) -> list[int]:
        """How many dice a throw may hold (each count has a real photo)."""
        return sorted(self._by_count)

    def throw(self, count: int) -> bool:
        """Throw ``count`` dice into the tray; False when no photo holds that many."""
        photos = self._by_count.get(count)
        if not photos:
            return False
        turn = self._turns.get(count, 0)
        self._turns[count] = turn + 1
        self._thrown.put(photos[turn % len(photos)])
        return True

    def _photo_frames(self) -> Generator[np.ndarray, None, None]:
        current = _load(self._paths[0])
        while True:
            try:
                photo = _load(self._thrown.get_nowait())
            except queue.Empty:
                yield self._noise(current)
                continue
            yield from tumble_frames(current, photo, self._tumble_frames, self._rng, self._noise)
            current = photo


def photos_by_count(folder: Path) -> dict[int, list[Path]]:
    """The photos of ``folder`` by how many dice each holds, from its ``labels.csv``
    (``image,face,...``, a row a die), each count's photos by name."""
    try:
        with (folder / "labels.csv").open(newline="") as rows:
            counts = Counter(row["image"] for row in csv.DictReader(rows))
    except (OSError, KeyError, csv.Error) as exc:
        raise CameraError(f"replay: {folder}/labels.csv cannot be read: {exc}") from exc
    by_count: dict[int, list[Path]] = {}
    for image, count in sorted(counts.items()):
        by_count.setdefault(count, []).append(folder / image)
    return by_count


def _resolve_source(source: str | Path | Sequence[str | Path]) -> tuple[list[Path], Path | None]:
    """Photo paths or a video path from a folder, a file or a list, or a CameraError."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        if path.is_dir():
            photos = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not photos:
                raise CameraError(f"replay: no photos ({', '.join(sorted(IMAGE_SUFFIXES))}) in {path}")
            return photos, None
        if not path.is_file():
            raise CameraError(f"replay: {path} does not exist")
        if path.suffix.lower() in VIDEO_SUFFIXES:
            return [], path
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return [path], None
        raise CameraError(f"replay: {path} is neither a photo nor a video this box can replay")
    photos = [Path(p) for p in source]
    if not photos:
        raise CameraError("replay: the list of photos is empty")
    return photos, None


def _load(path: Path) -> np.ndarray:
    try:
        return load_image(path)
    except ImageError as exc:
        raise CameraError(f"replay: {exc}") from exc


class SensorNoise:
    """Adds Gaussian noise of ``sigma`` levels, so held frames differ like a real sensor's.

    Drawing fresh Gaussian noise for a 640x640 frame costs ~20 ms (more than the frame
    budget on a Pi), so noise is drawn once per frame size and cycled, applied with
    saturating uint8 add/subtract.  The ``fields`` cycled are windows of one taller field,
    each ``FIELD_STEP`` rows below the last: every pixel gets other noise in each frame,
    and the noise holds about two frames (its up and down parts) instead of two per field
    (six separate fields of a 640x640 frame held 15 MB, and drawing them in float64
    peaked at 44 MB; now 2.8 MB, peaking at 8 MB in float32).
    """

    FIELD_STEP = 16
    """Rows between two windows: at least the settle detector's shrink factor (frames up
    to 4096 px wide), so no pixel of its small copy averages the same noise twice running."""

    def __init__(self, sigma: float, rng: np.random.Generator, fields: int = 6) -> None:
        self.sigma = sigma
        self._rng = rng
        self._count = fields
        self._shape: tuple[int, ...] | None = None
        self._up = self._down = np.zeros((0,), np.uint8)
        self._next = 0

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        if self.sigma <= 0:
            return frame.copy()
        if self._shape != frame.shape:
            self._draw(frame.shape)
        top = (self._next % self._count) * self.FIELD_STEP
        self._next += 1
        rows = slice(top, top + frame.shape[0])
        return cv2.subtract(cv2.add(frame, self._up[rows]), self._down[rows])

    def _draw(self, shape: tuple[int, ...]) -> None:
        tall = (shape[0] + (self._count - 1) * self.FIELD_STEP, *shape[1:])
        field = self._rng.standard_normal(tall, dtype=np.float32)
        field *= self.sigma
        self._up, self._down = np.empty(tall, np.uint8), np.empty(tall, np.uint8)
        np.clip(field, 0, 255, out=self._up, casting="unsafe")  # truncated, as astype does
        np.negative(field, out=field)
        np.clip(field, 0, 255, out=self._down, casting="unsafe")
        self._shape = shape


def tumble_frames(
    previous: np.ndarray, photo: np.ndarray, count: int, rng: np.random.Generator, noise: SensorNoise
) -> Iterator[np.ndarray]:
    """``count`` frames going from ``previous`` to ``photo`` the way a roll looks to the camera.

    An arm sweeps in and out over the first half; the new photo slides in from a random
    direction, motion-blurred and cross-faded, slowing down to rest on its final place.
    The last frame still differs from ``photo``, so the roll ends in motion.
    """
    h, w = photo.shape[:2]
    if previous.shape != photo.shape:
        previous = cv2.resize(previous, (w, h), interpolation=cv2.INTER_AREA)
    angle = rng.uniform(0.0, 2.0 * math.pi)
    reach = 0.25 * min(w, h)
    arm_side = int(rng.integers(4))
    for k in range(count):
        t = (k + 1) / (count + 1)
        slide = reach * (1.0 - t) ** 2
        moved = _shift(photo, slide * math.cos(angle), slide * math.sin(angle))
        moved = _motion_blur(moved, max(1, int(slide / 4)), angle)
        alpha = min(1.0, 0.25 + t)
        frame = cv2.addWeighted(moved, alpha, previous, 1.0 - alpha, 0.0)
        if t < 0.5:
            draw_arm(frame, t * 2.0, arm_side)
        yield noise(frame)


def draw_arm(frame: np.ndarray, progress: float, side: int = 0, colour: tuple[int, int, int] = SKIN_BGR) -> None:
    """Draw, in place, an arm reaching in from one image edge (0 bottom, 1 right, 2 top, 3 left).

    ``progress`` 0..1: the hand enters, reaches the middle at 0.5 and leaves at 1.
    """
    h, w = frame.shape[:2]
    depth = math.sin(math.pi * min(max(progress, 0.0), 1.0)) * 0.6
    base_x, base_y, dir_x, dir_y = [
        (0.55 * w, h, 0.0, -h),
        (w, 0.45 * h, -w, 0.0),
        (0.45 * w, 0, 0.0, h),
        (0, 0.55 * h, w, 0.0),
    ][side % 4]
    tip = (int(base_x + dir_x * depth), int(base_y + dir_y * depth))
    base = (int(base_x - dir_x * 0.1), int(base_y - dir_y * 0.1))
    size = min(w, h)
    cv2.line(frame, base, tip, colour, thickness=max(3, size // 7), lineType=cv2.LINE_AA)
    cv2.circle(frame, tip, max(3, size // 10), tuple(max(c - 20, 0) for c in SKIN_BGR), -1, lineType=cv2.LINE_AA)


def _shift(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    matrix = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(image, matrix, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)


def _motion_blur(image: np.ndarray, length: int, angle: float) -> np.ndarray:
    """Smear along the main axis of travel, as a fast-moving die smears in one exposure.

    A box filter along x or y costs the same at any length, which a rotated line kernel
    does not; the demo must replay in real time on a Pi.
    """
    if length <= 1:
        return image
    horizontal = abs(math.cos(angle)) >= abs(math.sin(angle))
    return cv2.blur(image, (length, 1) if horizontal else (1, length))
