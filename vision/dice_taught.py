"""Symbol dice taught once by a player: a few photos of each face, then read like pips.

Harry Potter Clue's black die has location symbols, the Dark Mark and a star instead
of pips.  No network can know such faces in advance, so the box keeps, per taught
die, the face patches it was shown (cut exactly like the pip reader's patches, see
``vision.dice_patch``) and reads a die by normalised cross-correlation against those
patches at 24 rotations.  A handful of photos per face is enough because the patch is
already scale-normalised by the detector, and correlation needs no training.

A model is a directory of portable files, e.g. ``<state_dir>/dice/clue/``:
``die.json`` (name, faces, body colour, acceptance threshold) and one PNG patch per
taught photo (``<face>-<n>.png``), so it can be copied, inspected or re-taught.

A die found in a roll is taken for a taught die only if both its body colour and its
best correlation fit that die; otherwise the pip reader reads it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice_patch import PATCH, cut_patch
from vision.images import ImageError, check_frame

ROTATIONS = 24
"""Templates are kept every 15 degrees: the correlation of a face with itself falls
well below a same-face match beyond ~10 degrees of misalignment."""

ACCEPT = 0.55
"""Minimum correlation for a die to be taken as a taught die at all."""

MARGIN = 0.06
"""Best face must beat the next face by this much, or the taught die is unsure."""

COLOUR_DIST = 40.0
"""Largest Lab distance between a die's body colour and the taught die's."""

SCALES = (0.7, 0.85, 1.0, 1.2, 1.4)
"""Patch scales tried when reading a taught die (see ``TaughtDice.read``)."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _check_name(kind: str, name: str) -> str:
    """Names become file names: refuse anything that could leave the model directory."""
    if not _NAME.match(name):
        raise ValueError(f"{kind} name {name!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    return name


def _disk_mask() -> np.ndarray:
    """Weights keeping the die face and dropping the table in the patch corners."""
    yy, xx = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32) - (PATCH - 1) / 2
    return (np.hypot(xx, yy) <= PATCH * 0.42).astype(np.float32)


MASK = _disk_mask()


def normalise(patch: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-norm grey values inside the face disk: NCC becomes a dot product,
    insensitive to the brightness and contrast of the light at the table."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grey = cv2.GaussianBlur(grey, (5, 5), 1.2)
    v = grey[MASK > 0]
    v = v - v.mean()
    return v / max(float(np.linalg.norm(v)), 1e-3)


def body_colour(patch: np.ndarray) -> np.ndarray:
    """The die's body colour in Lab: the median over the face disk, which pips or
    symbols (a minority of the face) do not move."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return np.median(lab[MASK.reshape(-1) > 0].astype(np.float32), axis=0)


def _rotations(patch: np.ndarray) -> np.ndarray:
    """The patch at every template rotation, each normalised: shape (ROTATIONS, k)."""
    c = (PATCH / 2 - 0.5, PATCH / 2 - 0.5)
    out = []
    for i in range(ROTATIONS):
        m = cv2.getRotationMatrix2D(c, 360.0 * i / ROTATIONS, 1.0)
        out.append(normalise(cv2.warpAffine(patch, m, (PATCH, PATCH), borderMode=cv2.BORDER_REPLICATE)))
    return np.stack(out)


@dataclass
class TaughtDie:
    """One taught die: its face names, templates and body colour."""

    name: str
    faces: list[str]
    templates: np.ndarray  # (n_templates, k) normalised patches at all rotations
    owners: np.ndarray     # face index of each template
    colour: np.ndarray     # Lab body colour

    @classmethod
    def load(cls, directory: Path) -> "TaughtDie":
        """Rebuild the matcher from the PNG patches of a model directory."""
        meta_path = directory / "die.json"
        if not meta_path.exists():
            raise FileNotFoundError(f"{directory}: no taught die here (die.json missing)")
        meta = json.loads(meta_path.read_text())
        faces = list(meta["faces"])
        templates, owners, colours = [], [], []
        for index, face in enumerate(faces):
            for png in sorted(directory.glob(f"{face}-*.png")):
                patch = cv2.imread(str(png), cv2.IMREAD_COLOR)
                if patch is None or patch.shape[:2] != (PATCH, PATCH):
                    raise ValueError(f"{png}: not a {PATCH}x{PATCH} face patch")
                templates.append(_rotations(patch))
                owners += [index] * ROTATIONS
                colours.append(body_colour(patch))
        if not templates:
            raise ValueError(f"{directory}: taught die has no face photos")
        return cls(meta["name"], faces, np.concatenate(templates), np.array(owners), np.median(colours, axis=0))

    def match(self, patch: np.ndarray) -> tuple[str | None, float, float] | None:
        """(face or None when unsure, confidence, best correlation) if the patch is this
        die, else None."""
        if float(np.linalg.norm(body_colour(patch) - self.colour)) > COLOUR_DIST:
            return None
        scores = self.templates @ normalise(patch)
        per_face = np.full(len(self.faces), -1.0, np.float32)
        np.maximum.at(per_face, self.owners, scores)
        order = np.argsort(per_face)[::-1]
        best = float(per_face[order[0]])
        if best < ACCEPT:
            return None
        second = float(per_face[order[1]]) if len(order) > 1 else -1.0
        confidence = float(np.clip(0.5 + (best - second) / (4 * MARGIN), 0.0, 1.0))
        face = self.faces[order[0]] if best - second >= MARGIN else None
        return face, confidence, best


@dataclass
class TaughtDice:
    """The taught dice a game uses; ``read_dice(frame, taught)`` consults all of them."""

    dice: tuple[TaughtDie, ...]

    @classmethod
    def load(cls, root: Path, names: Iterable[str]) -> "TaughtDice":
        """Load dice by name from ``root`` (``<state_dir>/dice``)."""
        return cls(tuple(TaughtDie.load(root / _check_name("die", n)) for n in names))

    def read(self, frame: np.ndarray, x: float, y: float, size: float) -> tuple[str | None, float, float] | None:
        """(face or None, confidence, correlation) of the die at (x, y) if it is one of
        the taught dice, else None.

        The detector's size estimate is off by up to a third on dice unlike the pipped
        ones it learned from, so the die is cut at several scales and the best-fitting
        one is kept.
        """
        results = []
        for scale in SCALES:
            patch = cut_patch(frame, x, y, size * scale)
            results += [r for r in (d.match(patch) for d in self.dice) if r is not None]
        return max(results, key=lambda r: r[2]) if results else None


def teach_die(directory: Path, face: str, frames: Iterable[np.ndarray]) -> TaughtDie:
    """Add photos of one face of a die to the model in ``directory``; returns the model.

    Each frame must show the die (alone, or as the clearest die in view).  Faces can
    be taught in any order and re-taught; a new face is appended to the die's faces.
    """
    from vision.dice import find_dice  # the pip reader's detector finds any die

    _check_name("face", face)
    _check_name("die", directory.name)
    directory.mkdir(parents=True, exist_ok=True)
    meta_path = directory / "die.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {"name": directory.name, "faces": []}
    patches = []
    for i, frame in enumerate(frames):
        frame = check_frame(frame, f"photo {i + 1}")
        found = find_dice(frame, peak=0.15)
        if not found:
            raise ImageError(f"photo {i + 1}: no die found; show the die alone, well lit, filling 5-15% of the view")
        die = max(found, key=lambda c: c.heat)
        patches.append(cut_patch(frame, die.x, die.y, die.size))
    if not patches:
        raise ValueError("no photos given")
    count = len(list(directory.glob(f"{face}-*.png")))
    for k, patch in enumerate(patches):  # written only once every photo was usable
        cv2.imwrite(str(directory / f"{face}-{count + k}.png"), patch)
    if face not in meta["faces"]:
        meta["faces"].append(face)
    meta_path.write_text(json.dumps({"name": meta["name"], "faces": meta["faces"], "patch": PATCH, "version": 1}, indent=2) + "\n")
    return TaughtDie.load(directory)
