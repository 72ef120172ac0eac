"""Teaching a deck from the box's camera: preview the straightened grid, then enrol it.

The host lays the cards in a grid under the camera and types their names; the page
first shows each straightened card (so a misread grid is caught before anything is
written), then the host confirms and the cards go into the catalog folder.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.catalog import Catalog, warp_grid


def jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise ValueError("the card image could not be encoded")
    return data.tobytes()


def teach_cards(frame: np.ndarray | None, catalog: Path, rows: int, cols: int, names: list[str], commit: bool) -> list[bytes]:
    """Previews of the grid's cards as JPEG; with ``commit`` they are enrolled as ``names``.
    Raises ValueError (CatalogError is one) with a message for the host."""
    if frame is None:
        raise ValueError("the camera has not delivered a picture yet: check it on the board page")
    if len(names) != rows * cols:
        raise ValueError(f"{len(names)} names for a {rows}x{cols} grid of {rows * cols} cards")
    cards = Catalog(catalog).enroll_grid(frame, rows, cols, names) if commit else warp_grid(frame, rows, cols)
    return [jpeg(card) for card in cards]
