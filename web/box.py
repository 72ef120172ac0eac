"""What the web pages may ask of the box's hardware side, without importing it.

``web/`` imports only ``engine/``; the daemon in ``device/`` implements this
protocol and hands it to :func:`web.create_app`.  With no hardware at all (manual
play, or the Flask test client) :class:`NoHardware` answers honestly that there is
nothing to show, so every page still works by hand.
"""

from __future__ import annotations

from typing import Any, Protocol


class Box(Protocol):
    """The box's sensors and outputs as the pages see them."""

    def board(self) -> dict[str, Any]:
        """LEDs and parts as they are now, for the host page and the virtual board:
        ``{"tracks": {name: {"lit": [bool...], "colour": "#rrggbb" | None, "blinking": index | None,
        "on": "bar" | "strip" | None (board page only), "value", "length", "attention", "idle"?}},
        "blink_seconds": float, "status": "waiting|ready|attention|off", "simulated": bool,
        "parts": {"camera": "ok|missing|...", "speaker": ..., "gpio": ...}, "problems": [str],
        "spoken": [last lines said]}``; every track of the game is there, lit or not."""

    def press(self, button: str) -> None:
        """Press a simulated button (``"confirm"``, ``"confirm-hold"``, ``"undo"``, ``"undo-hold"``,
        or ``"roll"``: dice thrown into the demo's tray); only when simulated."""

    def camera_jpeg(self) -> bytes | None:
        """The latest camera frame as JPEG (host page only), or None without a camera."""

    def remeter_camera(self) -> None:
        """Measure the light afresh and lock exposure again; ValueError without a camera."""

    def pending(self) -> list[dict[str, Any]]:
        """Readings waiting for the host: ``{"id": str, "kind": "dice"|"cards", "action": str,
        "values": [...], "unsure": [index...], "confidence": float}``."""

    def pending_jpeg(self, reading_id: str) -> bytes | None:
        """The photo of a pending reading with its unsure dice or cards marked."""

    def resolve(self, reading_id: str, values: list[Any] | None) -> None:
        """Host confirmed (or corrected) a reading: submit it; ``None`` discards it."""

    def teach_cards(self, catalog: str, rows: int, cols: int, names: list[str], commit: bool) -> list[bytes]:
        """Teach a deck from the current camera frame: the warped cards as JPEG previews;
        with ``commit`` they are enrolled into ``catalog``. Raises ValueError with a message
        for the host when the photo does not hold ``rows*cols`` cards."""

    def teach_die(self, die: str, face: str) -> dict[str, Any]:
        """Add the one die in the current camera frame as a photo of ``face`` of ``die``:
        ``{"die": str, "face": str, "preview": JPEG bytes of the stored face patch,
        "faces": {face: photos so far}}``; rolls read it from then on.  Raises
        ValueError with a message for the host (no camera, no die or several dice in
        view, a name that is not letters, digits, '-', '_' or '.')."""

    def forget_die(self, die: str) -> None:
        """Delete a taught die; KeyError if none has that name, ValueError for a bad name."""

    def taught_dice(self) -> dict[str, dict[str, int]]:
        """Every taught die: ``{die: {face: photos}}``, faces in teaching order."""


class NoHardware:
    """A box with no camera, lights or speaker: everything is entered by hand."""

    def board(self) -> dict[str, Any]:
        return {"tracks": {}, "status": "off", "simulated": False, "parts": {}, "problems": [], "spoken": []}

    def press(self, button: str) -> None:
        raise PermissionError("there are no simulated buttons on this box")

    def camera_jpeg(self) -> bytes | None:
        return None

    def remeter_camera(self) -> None:
        raise ValueError("this box has no camera")

    def pending(self) -> list[dict[str, Any]]:
        return []

    def pending_jpeg(self, reading_id: str) -> bytes | None:
        return None

    def resolve(self, reading_id: str, values: list[Any] | None) -> None:
        raise KeyError(reading_id)

    def teach_cards(self, catalog: str, rows: int, cols: int, names: list[str], commit: bool) -> list[bytes]:
        raise ValueError("this box has no camera: cards cannot be taught")

    def teach_die(self, die: str, face: str) -> dict[str, Any]:
        raise ValueError("this box has no camera: dice cannot be taught")

    def forget_die(self, die: str) -> None:
        raise KeyError(die)

    def taught_dice(self) -> dict[str, dict[str, int]]:
        return {}
