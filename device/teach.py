"""Teaching from the box's camera: a deck of cards, or the faces of a symbol die.

Deck: the host lays the cards in a grid under the camera and types their names; the
page first shows each straightened card (so a misread grid is caught before anything
is written), then the host confirms and the cards go into the catalog folder.

Die: the host puts the one die in the tray with a face up, names the die and the face
and taps Capture; each capture adds one photo of that face.  The page shows the cut
patch exactly as the reader will compare it, so a badly cut die is seen at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import Catalog, warp_grid
from vision.dice import add_face, check_name, face_patch, taught_dice
from vision.images import ImageError

NO_FRAME = "the camera has not delivered a picture yet: check it on the board page"
PREVIEW_SIDE = 160
"""The stored face patch (``vision.dice.taught.PATCH`` px) is shown enlarged to this,
sharp-edged, on the host's phone."""


def jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ValueError("the image could not be encoded")
    return data.tobytes()


def teach_cards(
    frame: np.ndarray | None, catalog: Path, rows: int, cols: int, names: list[str], commit: bool
) -> list[bytes]:
    """Previews of the grid's cards as JPEG; with ``commit`` they are enrolled as ``names``.
    Raises ValueError (CatalogError is one) with a message for the host."""
    if frame is None:
        raise ValueError(NO_FRAME)
    if len(names) != rows * cols:
        raise ValueError(f"{len(names)} names for a {rows}x{cols} grid of {rows * cols} cards")
    cards = Catalog(catalog).enroll_grid(frame, rows, cols, names) if commit else warp_grid(frame, rows, cols)
    return [jpeg(card) for card in cards]


def teach_die_face(frame: np.ndarray | None, root: Path, die: str, face: str) -> dict[str, Any]:
    """Add the die in ``frame`` as one photo of ``face`` of the die ``die`` under ``root``
    (``<state_dir>/dice``).  Returns ``{"die", "face", "preview": JPEG bytes of the
    enlarged patch, "faces": {face: photos so far}}``.  Raises ValueError with a message
    for the host (no picture, not exactly one die, a bad name); nothing is written then.
    """
    check_name("die", die)
    check_name("face", face)
    if frame is None:
        raise ValueError(NO_FRAME)
    try:
        patch = face_patch(frame)
    except ImageError as exc:
        raise ValueError(str(exc)) from None
    add_face(root / die, face, [patch])
    preview = cv2.resize(patch, (PREVIEW_SIDE, PREVIEW_SIDE), interpolation=cv2.INTER_NEAREST)
    return {"die": die, "face": face, "preview": jpeg(preview), "faces": taught_dice(root)[die]}
