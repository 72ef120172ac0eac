"""Symbol dice taught once by a player: a few photos of each face, then read like pips.

Harry Potter Clue's black die has location symbols, the Dark Mark and a star instead
of pips.  No network can know such faces in advance, so the box keeps, per taught
die, the face patches it was shown and compares a die in a roll with them by
normalised cross-correlation.  Correlation needs no training, so 3-5 photos a face
are enough, provided both sides are cut alike: the detector's box is too rough for
that on a die it was not trained on, so the die's square (centre, side and angle) is
found first (``locate_face``) and the face is cut square to the patch.  The face can
then lie only at four turns, which keeps look-alike faces apart.

A die is read as a taught face only when its colours fit the taught die, its best
face correlates closely, clearly better than the next face and than every pip face
drawn in the die's own colours (so a black pipped die stays a pipped die); a die that
may be the taught die but is not clear is reported unsure, never guessed.

A model is a directory of portable files, e.g. ``<state_dir>/dice/clue/``:
``die.json`` (name, faces in teaching order) and one PNG patch per taught photo
(``<face>-<n>.png``), so it can be copied, inspected or re-taught.  The host page
(``device.teach``) and ``familiar vision teach-die`` both build it here.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice.patch import MARGIN as PATCH_MARGIN
from vision.dice.patch import cut_patch
from vision.dice.read import FITS, SURE_FIT
from vision.dice.square import SECOND_SQUARE, SQUARE_CONTRAST, locate_face
from vision.images import ImageError, check_frame

SURE = (SURE_FIT + 1.0) / 2
"""Fit reported for a die that is surely a taught die (whatever its face)."""
MAYBE = (FITS + SURE_FIT) / 2
PIPPED = 0.0
"""The fit of a die that matches this die's pip faces better than its taught faces: a
pipped die in the taught die's colours, left to the pip reader without the second,
smaller square search (the same tallies in ``bench.taught_dice``, less time)."""
"""Fit reported for a die that may be a taught die: the reader then calls it unsure."""

PATCH = 48
"""Side of a stored face patch: cut like the pip reader's 32 px patches (same share of
the die), but larger, so a symbol keeps the details that tell it from the others."""

TURNS = (0.0, 90.0, 180.0, 270.0)
"""Once the die's square is found, its face can lie only at these turns..."""

JITTER = (-4.0, 0.0, 4.0)
"""...give or take the angle step of the square search (degrees)."""

SCALES = (1.0, 0.95, 1.05)
SHIFTS = ((0.0, 0.0), (-0.03, 0.0), (0.03, 0.0), (0.0, -0.03), (0.0, 0.03))
"""Sizes and centre offsets (shares of the die side) tried around the found square, to
absorb the square search's pixel steps; the first of each is the plain cut."""

FACE_SQUARE = 0.42
"""Half-width of the compared square, as a share of the die side: the whole face,
corner pips included (they tell a pipped die apart), but not the die's bevelled edges,
whose look changes with the light and the camera's slant."""

FACES_PER_DIE = 6
"""A die is read by name only once all its faces are taught: an untaught face may look
more like one taught face than any other (faces of one die share a style), and with
nothing to compare against it would be read as that face.  Until then a die that
matches is reported unsure."""

ACCEPT = 0.88
"""Least correlation with a taught face for a die to be read as the taught die: true
faces reach more once squared up, pipped dice of the same colours clearly less
(measured with the drawn symbol die on the tray photos, see bench/taught_dice.py)."""

MAYBE_FROM = 0.84
"""From this correlation up to ACCEPT a die may be the taught die: it is called unsure."""

RATIO = 2.0
"""The best face must be this many times closer (1 - correlation) than the next face;
other faces of the same die still reach 0.84-0.92, so a plain margin would be blind."""

PIP_MARGIN = 0.05
"""The best face must beat every pip face drawn in the die's own colours by this much."""

COLOUR_AB = 22.0
"""Largest distance in Lab chroma (a, b; 8-bit scale) between a die's body colour and
the taught die's: lamp colour moves chroma a little, pipped dice of other colours a lot."""

COLOUR_L = 60.0
"""Largest lightness difference (8-bit scale): lamp brightness moves it a lot."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_name(kind: str, name: str) -> str:
    """Names become file names: refuse anything that could leave the model directory."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"{kind} name {name!r}: use letters, digits, '-', '_' or '.' (up to 64, starting with a letter or digit)"
        )
    return name


def _square_mask(half: float) -> np.ndarray:
    """Pixels of a patch within ``half`` of a die side from the centre (both axes)."""
    yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32) - (PATCH - 1) / 2
    limit = half * PATCH / PATCH_MARGIN
    return (np.abs(xx) <= limit) & (np.abs(yy) <= limit)


MASK = _square_mask(FACE_SQUARE)
"""The compared square: the face, not the die's edges or the table."""

BODY_MASK = MASK & ~_square_mask(0.3)
"""Where a found face's body colour is taken: the ring between the symbol (or the
pips) and the die's edges."""


def _ring_mask(inner: float, outer: float) -> np.ndarray:
    yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32) - (PATCH - 1) / 2
    r = np.hypot(xx, yy) / (PATCH / PATCH_MARGIN)
    return (r >= inner) & (r <= outer)


PEAK_DISK = _ring_mask(0.0, 0.4)
"""Where the body colour is looked for around a detector peak, before the face is found:
mostly the die, whether the detector's size is a third too large or too small."""

BODY_SHARE = 0.15
"""Least share of that disk in the taught die's body colour for the die to be
compared at all (large symbols, like a book or a tower, cover much of the face)."""


def normalise(patch: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-norm grey values inside the face square: NCC becomes a dot product,
    insensitive to the brightness and contrast of the light at the table."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32) if patch.ndim == 3 else patch.astype(np.float32)
    grey = cv2.GaussianBlur(grey, (5, 5), 1.2)
    v = grey[MASK]
    v = v - v.mean()
    return v / max(float(np.linalg.norm(v)), 1e-3)


def body_colour(patch: np.ndarray) -> np.ndarray:
    """The body colour in Lab of a face squared up in its patch (see ``face_patches``):
    the median over the ring around the symbol, which the symbol barely touches."""
    return np.median(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[BODY_MASK].astype(np.float32), axis=0)


def _colour_fits(colour: np.ndarray, taught: np.ndarray) -> bool:
    """Whether Lab colours (one, or an array of them) are within the colour tolerances."""
    colour = np.asarray(colour, np.float32)
    ab = np.hypot(colour[..., 1] - taught[1], colour[..., 2] - taught[2])
    return (ab <= COLOUR_AB) & (np.abs(colour[..., 0] - taught[0]) <= COLOUR_L)


def _may_be(frame: np.ndarray, x: float, y: float, size: float, die: TaughtDie) -> bool:
    """Cheap first look: does enough of the die near a peak have the taught body colour?
    Pipped dice of other colours stop here, before the costlier square search."""
    lab = cv2.cvtColor(cut_patch(frame, x, y, size, out=PATCH), cv2.COLOR_BGR2LAB)[PEAK_DISK].astype(np.float32)
    return float(np.mean(_colour_fits(lab, die.colour))) >= BODY_SHARE


def _turns(patch: np.ndarray, turns: tuple[float, ...] = TURNS) -> np.ndarray:
    """The patch at every turn with its jitter, each normalised: (n, k)."""
    c = (PATCH / 2 - 0.5, PATCH / 2 - 0.5)
    out = []
    for turn in turns:
        for jitter in JITTER:
            m = cv2.getRotationMatrix2D(c, turn + jitter, 1.0)
            out.append(normalise(cv2.warpAffine(patch, m, (PATCH, PATCH), borderMode=cv2.BORDER_REPLICATE)))
    return np.stack(out)


def face_patches(
    frame: np.ndarray,
    x: float,
    y: float,
    size: float,
    steps: bool = False,
    body: np.ndarray | None = None,
    below: float | None = None,
) -> tuple[list[np.ndarray], float, float]:
    """The die's face cut square to the patch (at the found square), or, with ``steps``,
    at every tried scale and shift; the square's contrast with the tray and its side
    (see ``locate_face`` for ``body`` and ``below``)."""
    cx, cy, side, angle, contrast = locate_face(frame, x, y, size, body, below)
    scales, shifts = (SCALES, SHIFTS) if steps else ((1.0,), ((0.0, 0.0),))
    a = np.radians(angle)
    ux, uy = np.cos(a), -np.sin(a)  # the square's own axes in the frame
    patches = []
    for scale in scales:
        for dx, dy in shifts:
            px = cx + (dx * ux - dy * uy) * side
            py = cy + (dx * uy + dy * ux) * side
            patches.append(cut_patch(frame, px, py, side * scale, angle, out=PATCH))
    return patches, contrast, side


PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
"""Pip layouts, in units of the pip spacing (a quarter of the die side)."""


PIP_LOOKS = ((0.26, 0.10), (0.26, 0.13), (0.30, 0.11), (0.30, 0.14))
"""(pip spacing, pip radius) as shares of the die side: real dice vary around these
(measured on the tray photos' pipped dice); a lone pip is drawn 1.4 times larger."""


def pip_faces(body: float, ink: float) -> list[np.ndarray]:
    """The six pip faces drawn in a taught die's own body and ink greys, cut like a
    patch: a pipped die of the same colours must match these better than any taught
    face, so it is left to the pip reader instead of being read as a symbol."""
    side = PATCH / PATCH_MARGIN  # the die box inside the patch
    c = (PATCH - 1) / 2
    faces = []
    for spacing, radius in PIP_LOOKS:
        for count, layout in PIPS.items():
            face = np.full((PATCH * 4, PATCH * 4), body, np.float32)  # drawn 4x, then shrunk
            r = radius * (1.4 if count == 1 else 1.0)
            for px, py in layout:
                centre = (round((c + px * side * spacing) * 4), round((c + py * side * spacing) * 4))
                cv2.circle(face, centre, round(side * r * 4), ink, -1, cv2.LINE_AA)
            faces.append(cv2.resize(face, (PATCH, PATCH), interpolation=cv2.INTER_AREA))
    return faces


def ink_grey(patches: list[np.ndarray]) -> tuple[float, float]:
    """(body, ink) grey levels of the taught faces: the symbol is the minority of the
    face, light on a dark die or dark on a light one."""
    greys = np.concatenate([cv2.cvtColor(p, cv2.COLOR_BGR2GRAY)[MASK].astype(np.float32) for p in patches])
    lo, mid, hi = np.percentile(greys, (3, 50, 97))
    return float(mid), float(hi if hi - mid >= mid - lo else lo)


def _correlations(queries: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """Every query against every template (both normalised): a plain single-threaded loop,
    because a multi-threaded BLAS on a busy box (camera, web server, narrator) stalls on
    a product this small for many times longer than the loop takes."""
    return np.einsum("ik,jk->ij", queries, templates, optimize=False)


@dataclass
class TaughtDie:
    """One taught die: its face names, templates and body colour."""

    name: str
    faces: list[str]
    templates: np.ndarray  # (n_templates, k) normalised face patches at all rotations
    owners: np.ndarray  # face index of each template
    pips: np.ndarray  # (n, k) pip faces in the die's colours, at all rotations
    colour: np.ndarray  # Lab body colour

    @classmethod
    def load(cls, directory: Path) -> TaughtDie:
        """Rebuild the matcher from the PNG patches of a model directory."""
        meta_path = directory / "die.json"
        if not meta_path.exists():
            raise FileNotFoundError(f"{directory}: no taught die here (die.json missing)")
        meta = json.loads(meta_path.read_text())
        faces = list(meta["faces"])
        patches, owners = [], []
        for index, face in enumerate(faces):
            for png in sorted(directory.glob(f"{face}-*.png")):
                patch = cv2.imread(str(png), cv2.IMREAD_COLOR)
                if patch is None or patch.shape[:2] != (PATCH, PATCH):
                    raise ValueError(f"{png}: not a {PATCH}x{PATCH} face patch")
                patches.append(patch)
                owners += [index] * len(TURNS) * len(JITTER)
        if not patches:
            raise ValueError(f"{directory}: taught die has no face photos")
        templates = np.concatenate([_turns(p) for p in patches])
        pips = np.concatenate([_turns(f, (0.0, 90.0)) for f in pip_faces(*ink_grey(patches))])
        colour = np.median([body_colour(p) for p in patches], axis=0)
        return cls(meta["name"], faces, templates, np.array(owners), pips, colour)

    def match(self, queries: np.ndarray, face_lab: np.ndarray) -> tuple[str | None, float, float] | None:
        """(face or None when unsure, confidence, fit) if the die is this taught die, else
        None.  ``queries`` are the die's normalised patches at the tried scales and shifts,
        ``face_lab`` the Lab pixels of its face; ``fit`` is on the scale of ``vision.dice.read.FITS``,
        or PIPPED for a pipped die in this die's colours."""
        if float(np.mean(_colour_fits(face_lab, self.colour))) < BODY_SHARE:
            return None
        scores = _correlations(queries, self.templates).max(axis=0)
        per_face = np.full(len(self.faces), -1.0, np.float32)
        np.maximum.at(per_face, self.owners, scores)
        order = np.argsort(per_face)[::-1]
        best = float(per_face[order[0]])
        second = float(per_face[order[1]]) if len(order) > 1 else -1.0
        pip = float(_correlations(queries, self.pips).max())
        if best < MAYBE_FROM:
            return None  # something else: the pip reader decides
        if best < pip:
            return None, 0.0, PIPPED  # a pipped die in these colours: the pip reader decides
        closer = (1.0 - second) / max(1.0 - best, 1e-3)
        confidence = float(np.clip(best * min(1.0, closer / (2 * RATIO)), 0.0, 1.0))
        if best < ACCEPT or best - pip < PIP_MARGIN or len(self.faces) < FACES_PER_DIE:
            return None, min(confidence, 0.5), MAYBE  # may be this die: never let a guess through
        return (self.faces[order[0]] if closer >= RATIO else None), confidence, SURE


@dataclass
class TaughtDice:
    """The taught dice a game uses; ``read_dice(frame, taught)`` consults all of them."""

    dice: tuple[TaughtDie, ...]

    @classmethod
    def load(cls, root: Path, names: Iterable[str]) -> TaughtDice:
        """Load dice by name from ``root`` (``<state_dir>/dice``)."""
        return cls(tuple(TaughtDie.load(root / check_name("die", n)) for n in names))

    def read(self, frame: np.ndarray, x: float, y: float, size: float) -> tuple[str | None, float, float] | None:
        """(face or None, confidence, fit) of the die at (x, y) if it may be one of the
        taught dice, else None.  ``fit`` tells ``vision.dice.read_dice`` how sure it is
        that this is a taught die at all: SURE overrides the pip reader, MAYBE makes the
        die unsure (asked to a player) rather than risk a wrong pip value or face."""
        results = []
        for die in self.dice:
            if not _may_be(frame, x, y, size, die):
                continue  # the cheap exit for pipped dice of other colours
            result, side = self._match(frame, x, y, size, die, None)
            if result is None or PIPPED < result[2] < SURE:  # the square may have taken in a dark neighbour
                second, _ = self._match(frame, x, y, size, die, SECOND_SQUARE * side)
                if second is not None and (result is None or (second[2], second[1]) > (result[2], result[1])):
                    result = second
            if result is not None and result[2] > PIPPED:
                results.append(result)
        return max(results, key=lambda r: (r[2], r[1])) if results else None

    @staticmethod
    def _match(
        frame: np.ndarray, x: float, y: float, size: float, die: TaughtDie, below: float | None
    ) -> tuple[tuple[str | None, float, float] | None, float]:
        """The die's match on its best square (smaller than ``below``), and that square's side."""
        patches, contrast, side = face_patches(frame, x, y, size, steps=True, body=die.colour, below=below)
        if contrast <= 0:
            return None, side
        face_lab = cv2.cvtColor(patches[0], cv2.COLOR_BGR2LAB)[BODY_MASK].astype(np.float32)  # the plain cut
        result = die.match(np.stack([normalise(p) for p in patches]), face_lab)
        if result is not None and contrast < SQUARE_CONTRAST:
            result = (None, min(result[1], 0.5), MAYBE)  # the die's outline was not clear: never sure
        return result, side


NOT_A_DIE = 0.6
"""A detector peak counts as a die when teaching unless the pip classifier gives "not a
die" at least this probability.  The reader's own threshold is stricter, but a symbol
die looks to the classifier like no die it learned, so it scores well under this,
while the screw holes and specks an empty tray shows score well above it."""

TEACH_HEAT = 0.25
"""...and unless the detector's heat at it is under this: the detector also marks specks
and screw holes in an empty tray, weakly (under this), while the die being taught is
marked above it in nearly every photo (a photo where it is not is refused, and the
host takes another)."""

MAX_PHOTOS = 12
"""Photos kept per face: more adds matching time and little else (the rotations and
scales are already tried when reading)."""


def face_patch(frame: np.ndarray, what: str = "") -> np.ndarray:
    """The one die in view, cut like the pip reader cuts it; raises ImageError unless
    exactly one die is in view, so a stray die or a hand never becomes a face."""
    from vision.dice.nets import thresholds
    from vision.dice.read import candidates  # the pip reader's detector finds any die

    frame = check_frame(frame, what or "the photo")
    said = f"{what}: " if what else ""
    t = thresholds()
    found = [c for c, p in candidates(frame, t.peak, NOT_A_DIE) if p[0] < NOT_A_DIE and c.heat >= TEACH_HEAT]
    if len(found) != 1:
        seen = "no die" if not found else f"{len(found)} dice"
        hint = (
            "put the die in the tray, well lit, away from the edges"
            if not found
            else "leave only the die you are teaching"
        )
        raise ImageError(f"{said}I see {seen}: {hint}")
    die = found[0]
    patches, contrast, _ = face_patches(frame, die.x, die.y, die.size)
    if contrast < SQUARE_CONTRAST:
        raise ImageError(
            f"{said}I cannot make out the die's edges against the tray: more light, or a tray of another colour"
        )
    return patches[0]


def add_face(directory: Path, face: str, patches: list[np.ndarray]) -> TaughtDie:
    """Store face patches in the model directory and return the reloaded model.

    Faces can be taught in any order and re-taught; a new face is appended to the
    die's faces.  Nothing is written if the face would exceed MAX_PHOTOS.
    """
    check_name("face", face)
    check_name("die", directory.name)
    if not patches:
        raise ValueError("no photos given")
    count = len(list(directory.glob(f"{face}-*.png")))
    if count + len(patches) > MAX_PHOTOS:
        raise ValueError(
            f"face {face!r} already has {count} photos; at most {MAX_PHOTOS} are kept: forget the die to start over"
        )
    directory.mkdir(parents=True, exist_ok=True)
    meta_path = directory / "die.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {"name": directory.name, "faces": []}
    for k, patch in enumerate(patches):
        cv2.imwrite(str(directory / f"{face}-{count + k}.png"), patch)
    if face not in meta["faces"]:
        meta["faces"].append(face)
    meta_path.write_text(
        json.dumps({"name": meta["name"], "faces": meta["faces"], "patch": PATCH, "version": 2}, indent=2) + "\n"
    )
    return TaughtDie.load(directory)


def teach_die(directory: Path, face: str, frames: Iterable[np.ndarray]) -> TaughtDie:
    """Add photos of one face of a die to the model in ``directory``; returns the model.

    Each frame must show that die alone; nothing is stored unless every photo is usable.
    """
    check_name("face", face)
    check_name("die", directory.name)
    patches = [face_patch(frame, f"photo {i + 1}") for i, frame in enumerate(frames)]
    return add_face(directory, face, patches)


def taught_dice(root: Path) -> dict[str, dict[str, int]]:
    """Every die taught under ``root`` (``<state_dir>/dice``): its faces, in teaching
    order, with the number of photos of each."""
    found: dict[str, dict[str, int]] = {}
    for meta_path in sorted(root.glob("*/die.json")):
        try:
            faces = json.loads(meta_path.read_text())["faces"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a damaged model is reported when the daemon loads it
        found[meta_path.parent.name] = {f: len(list(meta_path.parent.glob(f"{f}-*.png"))) for f in faces}
    return found


def forget_die(root: Path, name: str) -> None:
    """Delete a taught die's model; KeyError if no such die was taught."""
    directory = root / check_name("die", name)
    if not (directory / "die.json").is_file():
        raise KeyError(name)
    for png in directory.glob("*.png"):
        png.unlink()
    (directory / "die.json").unlink()
    with contextlib.suppress(OSError):  # files the box did not write stay with the folder
        directory.rmdir()
