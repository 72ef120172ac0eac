"""The one camera interface every frame source implements, and its error.

The daemon, the demo and ``familiar doctor`` only ever talk to a :class:`Camera`, so a
Pi camera, a USB webcam and a replayed folder of photos are interchangeable.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from types import TracebackType

import numpy as np

from vision.images import ImageError, check_frame

NO_CAMERA_HINT = "connect the camera ribbon / a USB webcam, or set camera.source in /etc/familiar/familiar.toml"
"""Said with every 'no camera' error, because the person reading it is at the table, not in the code."""


@dataclass(frozen=True)
class CameraTuning:
    """How a real camera's picture is held steady (replays ignore it).

    ``mains_hz``: the lights' mains frequency, 50 or 60; lamps on mains flicker at twice
    it, so exposure is kept to multiples of 10 ms (50 Hz) or 8.33 ms (60 Hz) and frames
    show no bands or brightness beating. 0 = no flicker lock (daylight, battery lights).
    ``lens_position``: fixed focus in dioptres (1 / distance in metres) for a camera with
    a motorised lens; None = focus once on the tray at start."""

    mains_hz: int = 50
    lens_position: float | None = None


class CameraError(RuntimeError):
    """A camera that cannot be opened or stopped delivering frames; the message says what to do."""


class ReplayFinished(CameraError):
    """A non-looping replay reached its end: the source is exhausted, not broken."""


class Camera(abc.ABC):
    """A source of BGR uint8 frames.

    ``read()`` blocks until the next frame and raises :class:`CameraError` when the camera
    is gone, so callers have exactly one failure path to handle.
    """

    description: str = "camera"

    @abc.abstractmethod
    def read(self) -> np.ndarray:
        """Return the next frame as an H x W x 3 BGR uint8 array."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the device; safe to call twice."""

    motion_is_full: bool = True
    """Whether ``read_motion`` gives full frames (False: a camera's low-resolution stream)."""

    def read_motion(self) -> np.ndarray:
        """The next frame for watching the tray move (the settle detector): the full frame,
        unless the camera has a cheaper low-resolution stream of the same view."""
        return self.read()

    def still(self, seen: np.ndarray) -> np.ndarray:
        """The full-resolution frame of the scene in ``seen`` (a frame of ``read_motion``),
        for the readers once the tray is still: ``seen`` itself where it is a full frame."""
        return seen if self.motion_is_full else self.read()

    def remeter(self) -> None:  # noqa: B027 - a no-op unless the source meters exposure itself
        """Measure exposure and white balance afresh and lock them again (a new game, or
        the host changed the lights). Sources without automatic exposure do nothing."""

    def __enter__(self) -> Camera:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}>"


def as_bgr(frame: np.ndarray | None, source: str) -> np.ndarray:
    """Check a captured frame and convert grey/BGRA to BGR, as a CameraError if unusable.

    Reuses the still-image checks so a frame from any backend obeys the same rules as a
    photo given to the CLI.
    """
    try:
        return np.ascontiguousarray(check_frame(frame, source))
    except ImageError as exc:
        raise CameraError(f"{source} delivered an unusable frame: {exc}") from exc
