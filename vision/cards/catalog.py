"""A deck the box has been taught: a portable folder of straightened card images plus
a small JSON index with each card's name and game data.

    deck/
      catalog.json        {"format": 1, "cards": [{"name", "image", "data"}, ...]}
      cards/<slug>-<hash>.png
      descriptors.npz     cache of what each image looks like to the reader (optional)

The folder holds only the user's own photos and can be zipped and shared.  The cache
is tagged with the descriptor's version and rebuilt from the images when it does not
match, so a newer reader never trusts numbers written by an older one.

Every change is validated in full before anything is written; images are written under
fresh names and the index is replaced atomically (temp file + ``os.replace``), so a
failed or interrupted enrolment leaves the catalog exactly as it was.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards.describe import DESCRIPTOR_VERSION, SOFT_VIEWS, describe_views
from vision.cards.detect import CARD_SIZE, find_cards, warp_card
from vision.cards.keypoints import DeckPoints, deck_points
from vision.cards.verify import Ink, ink
from vision.images import check_frame

INDEX = "catalog.json"
CACHE = "descriptors.npz"
IMAGES = "cards"
FORMAT = 1
MAX_NAME = 80


class CatalogError(ValueError):
    """A catalog operation that cannot be done; the message says why, for the user."""


@dataclass
class _Entry:
    name: str
    image: str
    data: dict[str, Any] = field(default_factory=dict)


def _slug(name: str) -> str:
    """A file-name-safe stem for a card name, unique thanks to a hash of the name."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:40] or "card"
    return f"{stem}-{hashlib.sha1(name.encode()).hexdigest()[:8]}"


def _atomic_write(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so readers see the old file or the new, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _check_name(name: Any) -> str:
    """A usable card name: non-empty text, one line, not absurdly long."""
    if not isinstance(name, str) or not name.strip():
        raise CatalogError("card name must be non-empty text")
    name = name.strip()
    if len(name) > MAX_NAME or any(ch in name for ch in "\r\n\t"):
        raise CatalogError(f"card name {name[:MAX_NAME]!r} must be one line of at most {MAX_NAME} characters")
    return name


def _check_data(data: Any, name: str) -> dict[str, Any]:
    """Per-card game data must be a JSON object (it is stored in the index)."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise CatalogError(f"data for {name!r} must be a JSON object, got {type(data).__name__}")
    try:
        json.dumps(data)
    except (TypeError, ValueError) as exc:
        raise CatalogError(f"data for {name!r} is not JSON-serialisable: {exc}") from exc
    return dict(data)


def grid_order(quads: list[np.ndarray], rows: int, cols: int) -> list[np.ndarray]:
    """The quads of a rows x cols layout in row-major order, or CatalogError when they
    do not form such a grid (rows must not interleave)."""
    if len(quads) != rows * cols:
        raise CatalogError(f"found {len(quads)} cards in the photo, expected {rows}x{cols} = {rows * cols}")
    by_y = sorted(quads, key=lambda q: float(q[:, 1].mean()))
    grid = [sorted(by_y[r * cols : (r + 1) * cols], key=lambda q: float(q[:, 0].mean())) for r in range(rows)]
    for upper, lower in zip(grid, grid[1:], strict=False):
        if max(float(q[:, 1].mean()) for q in upper) > min(float(q[:, 1].min()) for q in lower):
            raise CatalogError(f"the cards do not lie in {rows} clear rows; straighten the grid and retake the photo")
    return [q for row in grid for q in row]


class Catalog:
    """A deck folder: card images, names and game data; the matcher reads it."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / IMAGES).mkdir(exist_ok=True)
        self._entries: list[_Entry] = self._load_index()
        self._vectors: np.ndarray | None = None
        self._norms = np.zeros(0, np.float32)
        self._cache: dict[str, np.ndarray] = {}
        self._points: DeckPoints | None = None
        self._inks: dict[str, Ink] = {}

    # ----- reading the folder -------------------------------------------------------
    def _load_index(self) -> list[_Entry]:
        path = self.directory / INDEX
        if not path.exists():
            return []
        try:
            index = json.loads(path.read_text(encoding="utf-8"))
            entries = [_Entry(str(c["name"]), str(c["image"]), dict(c.get("data") or {})) for c in index["cards"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CatalogError(f"{path}: not a readable catalog index ({exc})") from exc
        if index.get("format") != FORMAT:
            raise CatalogError(f"{path}: catalog format {index.get('format')!r}, this reader knows {FORMAT}")
        return entries

    @property
    def names(self) -> list[str]:
        """Card names in enrolment order."""
        return [e.name for e in self._entries]

    def __len__(self) -> int:
        return len(self._entries)

    def card_data(self, name: str) -> dict[str, Any]:
        """The game data stored with a card (a copy), e.g. ``{"dice": 2, "curse": False}``."""
        return dict(self._entry(name).data)

    def card_image(self, name: str) -> np.ndarray:
        """The straightened image a card was taught from (BGR)."""
        path = self.directory / self._entry(name).image
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CatalogError(f"{path}: card image missing or unreadable")
        return image

    def _entry(self, name: str) -> _Entry:
        for entry in self._entries:
            if entry.name == name:
                return entry
        raise CatalogError(f"no card named {name!r} in {self.directory}")

    @property
    def views(self) -> int:
        """Rows per card in :meth:`vectors` (the card sharp and soft, see SOFT_VIEWS)."""
        return 1 + len(SOFT_VIEWS)

    def vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """Descriptor matrix and each row's squared length, for nearest-neighbour search:
        ``views`` blocks of one row per card (enrolment order), so row r is card
        ``r % len(self)`` (see :func:`vision.cards.describe.describe_views`).

        Describing 1000 cards (every view) takes seconds, so descriptors are kept per
        image file (whose name changes whenever the card is re-taught) in memory and in
        ``descriptors.npz``; only new images are described.  The cache is keyed by DESCRIPTOR_VERSION, so a
        reader whose descriptor differs ignores it, and a read-only deck still works."""
        if self._vectors is None:
            if not self._cache:
                self._cache = self._load_cache()
            missing = [e for e in self._entries if e.image not in self._cache]
            for entry in missing:
                self._cache[entry.image] = describe_views(self.card_image(entry.name))
            if missing:
                self._save_cache()
            rows = [self._cache[e.image] for e in self._entries]
            self._vectors = np.concatenate(np.stack(rows, axis=1)) if rows else np.zeros((0, 0), np.float32)
            self._norms = (self._vectors**2).sum(axis=1)
        return self._vectors, self._norms

    def points(self) -> DeckPoints:
        """Every card's keypoints (see :mod:`vision.cards.keypoints`), found once per
        deck and kept in memory: a deck of a hundred cards takes about a second."""
        if self._points is None:
            self._points = deck_points([self.card_image(name) for name in self.names])
        return self._points

    def ink(self, name: str) -> Ink:
        """The taught card's ink map (see :func:`vision.cards.verify.ink`), kept in memory."""
        if name not in self._inks:
            self._inks[name] = ink(self.card_image(name))
        return self._inks[name]

    def _load_cache(self) -> dict[str, np.ndarray]:
        try:
            with np.load(self.directory / CACHE, allow_pickle=False) as saved:
                if str(saved["version"]) != DESCRIPTOR_VERSION:
                    return {}
                return {str(name): row for name, row in zip(saved["images"], saved["vectors"], strict=False)}
        except (OSError, KeyError, ValueError):
            return {}

    def _save_cache(self) -> None:
        used = {e.image for e in self._entries}
        names = sorted(name for name in self._cache if name in used)
        buffer = io.BytesIO()
        np.savez(
            buffer,
            version=np.array(DESCRIPTOR_VERSION),
            images=np.array(names),
            vectors=np.stack([self._cache[n] for n in names]),
        )
        try:
            _atomic_write(self.directory / CACHE, buffer.getvalue())
        except OSError:
            pass  # a read-only deck: descriptors are simply recomputed next time

    # ----- changing the folder ------------------------------------------------------
    def add(self, cards: list[tuple[str, np.ndarray, dict[str, Any] | None]]) -> None:
        """Store already straightened cards (name, BGR image, data); a name already in the
        catalog is replaced.  Everything is checked before anything is written."""
        names = [_check_name(name) for name, _, _ in cards]
        if len(set(names)) != len(names):
            dupes = sorted({n for n in names if names.count(n) > 1})
            raise CatalogError(f"duplicate card names: {', '.join(dupes)}")
        datas = [_check_data(data, name) for name, (_, _, data) in zip(names, cards, strict=False)]
        encoded = []
        for name, (_, image, _) in zip(names, cards, strict=False):
            image = check_frame(image, f"card {name!r}")
            ok, png = cv2.imencode(".png", cv2.resize(image, CARD_SIZE, interpolation=cv2.INTER_AREA))
            if not ok:
                raise CatalogError(f"card {name!r}: image could not be encoded")
            encoded.append(png.tobytes())
        new_files = []
        entries = {e.name: e for e in self._entries}
        for name, png, data in zip(names, encoded, datas, strict=False):
            rel = f"{IMAGES}/{_slug(name)}-{hashlib.sha1(png).hexdigest()[:8]}.png"
            _atomic_write(self.directory / rel, png)
            new_files.append(rel)
            entries[name] = _Entry(name, rel, data)
        self._commit(list(entries.values()))

    def enroll(self, frame: np.ndarray, name: str, data: dict[str, Any] | None = None) -> np.ndarray:
        """Teach one card from a photo showing exactly that card; returns the straightened card."""
        frame = check_frame(frame)
        quads = find_cards(frame)
        if len(quads) != 1:
            raise CatalogError(f"found {len(quads)} cards in the photo, expected exactly 1")
        card = warp_card(frame, quads[0])
        self.add([(name, card, data)])
        return card

    def enroll_grid(
        self, frame: np.ndarray, rows: int, cols: int, names: list[str], data: list[dict[str, Any]] | None = None
    ) -> list[np.ndarray]:
        """Teach a rows x cols grid of cards from one photo; ``names`` (and ``data``) are in
        row-major order.  Returns the straightened cards in the same order."""
        if rows < 1 or cols < 1:
            raise CatalogError(f"grid must be at least 1x1, got {rows}x{cols}")
        if len(names) != rows * cols:
            raise CatalogError(f"{len(names)} names given for a {rows}x{cols} grid of {rows * cols} cards")
        if data is not None and not isinstance(data, list):
            raise CatalogError(f"grid data must be a list of JSON objects, one per card, got {type(data).__name__}")
        if data is not None and len(data) != len(names):
            raise CatalogError(f"{len(data)} data entries given for {len(names)} names")
        checked = [_check_name(n) for n in names]
        if len(set(checked)) != len(checked):
            dupes = sorted({n for n in checked if checked.count(n) > 1})
            raise CatalogError(f"duplicate card names: {', '.join(dupes)}")
        cards = warp_grid(frame, rows, cols)
        self.add([(n, c, d) for n, c, d in zip(checked, cards, data or [None] * len(cards), strict=False)])
        return cards

    def remove(self, name: str) -> None:
        """Forget a card (its image file goes too)."""
        self._entry(name)
        self._commit([e for e in self._entries if e.name != name])

    def _commit(self, entries: list[_Entry]) -> None:
        """Replace the index atomically, then delete image files nothing refers to."""
        index = {"format": FORMAT, "cards": [{"name": e.name, "image": e.image, "data": e.data} for e in entries]}
        _atomic_write(self.directory / INDEX, (json.dumps(index, indent=1, ensure_ascii=False) + "\n").encode())
        self._entries = entries
        self._vectors = None
        self._points = None
        self._inks = {}
        used = {e.image for e in entries}
        for path in (self.directory / IMAGES).glob("*.png"):
            if f"{IMAGES}/{path.name}" not in used:
                path.unlink(missing_ok=True)


__all__ = ["Catalog", "CatalogError", "grid_order"]


def warp_grid(frame: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """The straightened cards of a rows x cols grid photo, row-major: what enrolling it
    would store, so a page can preview them before anything is written."""
    frame = check_frame(frame)
    return [warp_card(frame, q) for q in grid_order(find_cards(frame), rows, cols)]
