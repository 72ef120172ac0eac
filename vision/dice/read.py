"""Reading dice in one frame: find every die, read its top face, say when unsure.

Two small networks trained on real tray photos (see ``training/train_dice.py``)
run with OpenCV's dnn module, so the box needs no deep-learning runtime: the detector
finds die centres and sizes (``vision.dice.find``), and the face classifier reads a
patch cut around each (``vision.dice.faces``).  This module decides what the box
reports: a peak that reads its stronger neighbour's face is dropped (ECHO), a die cut
by the frame's edge is unsure (EDGE), and a die still unsure gets a second look, located
afresh by the detector closer up (``vision.dice.find.RELOOK_SIDE``) and seen as its
colourfulness, where red pips on a black die stand out
(``vision.dice.faces.colourfulness``).

A die whose face the classifier is not sure of gets ``value=None`` rather than a
guess: the host page asks a player to confirm it, which costs one tap, whereas a
wrong value silently changes the game.  Dice taught with ``vision.dice.taught`` are
matched first, so symbol dice and pipped dice are read together in one roll.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.dice.faces import classify_faces, colourfulness, face_share, likeliest_face
from vision.dice.find import Candidate, find_dice, located_afresh
from vision.dice.nets import Thresholds, thresholds
from vision.images import check_frame

if TYPE_CHECKING:
    from vision.dice.taught import TaughtDice

FITS, SURE_FIT = 0.8, 0.9
"""Correlations with a taught die's faces: pipped dice of the same colour reach
between the two against symbol faces (measured with a drawn symbol die), true faces
from FITS up.  So a taught face wins over an unsure pip reading from FITS, over a
sure one only from SURE_FIT; in between the die is reported unsure."""

ECHO = 0.5
"""A weaker peak nearer than this times the larger side to a stronger one, whose
patch reads the same face, is that die seen off-centre (an echo), not a second die:
it is dropped.  A touching die reads its own face and stays.  Without the echo rule a
die the detector marked off-centre, between it and its neighbour, was read as the
neighbour's face (a wrong value)."""
EDGE = 0.2
"""A die whose centre lies within this share of its side from the frame's edge has a
third or more of its face out of view: it is reported unsure, never with a value
read from half a face.  That costs a few right readings and removes wrong values and
values where no die is labelled; a wider margin costs more right for no fewer
errors."""


@dataclass(frozen=True)
class Die:
    """One die on the table: its top face (or None when unsure) and where it lies."""

    value: int | str | None
    x: float
    y: float
    corners: tuple[tuple[float, float], ...]
    confidence: float

    def to_json(self) -> dict[str, Any]:
        """The die as the CLI and the web page publish it."""
        return {
            "value": self.value,
            "x": round(self.x, 1),
            "y": round(self.y, 1),
            "corners": [[round(px, 1), round(py, 1)] for px, py in self.corners],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class DiceReading:
    """Every die found in one frame, in reading order (top to bottom, left to right)."""

    dice: tuple[Die, ...]

    @property
    def values(self) -> list[int | str]:
        """The values that were read; unsure dice are left out (see ``unsure``)."""
        return [d.value for d in self.dice if d.value is not None]

    @property
    def unsure(self) -> list[Die]:
        """Dice found but not read with confidence: to be confirmed by a player."""
        return [d for d in self.dice if d.value is None]

    def to_json(self) -> dict[str, Any]:
        return {"dice": [d.to_json() for d in self.dice]}


def candidates(
    frame: np.ndarray, peak: float | None = None, give_up: float = 1.0
) -> list[tuple[Candidate, np.ndarray]]:
    """Every die candidate with its class probabilities, echoes dropped (see ECHO):
    the one way the reader, the taught-die teacher and the threshold picker see dice.
    ``give_up``: see ``vision.dice.faces.classify_faces``."""
    found = find_dice(frame, peak)
    probs = classify_faces(frame, found, give_up)
    kept: list[tuple[Candidate, np.ndarray]] = []
    for c, p in zip(found, probs, strict=False):
        if not any(_echo(c, p, o, q) for o, q in kept):
            kept.append((c, p))
    return kept


def _echo(c: Candidate, p: np.ndarray, stronger: Candidate, q: np.ndarray) -> bool:
    """Whether candidate c is the stronger candidate's die again (see ECHO)."""
    return _near(c, stronger) and likeliest_face(p) == likeliest_face(q)


def _near(c: Candidate, other: Candidate) -> bool:
    """Whether two candidates lie nearer than ECHO times the larger side."""
    return math.hypot(c.x - other.x, c.y - other.y) < ECHO * max(c.size, other.size)


def box_corners(c: Candidate) -> tuple[tuple[float, float], ...]:
    """The die's box as four corners, clockwise from top-left."""
    r = c.size / 2
    return ((c.x - r, c.y - r), (c.x + r, c.y - r), (c.x + r, c.y + r), (c.x - r, c.y + r))


def decide(c: Candidate, p: np.ndarray, t: Thresholds, view: tuple[int, ...] | None = None) -> Die | None:
    """The pipped die a candidate is, given its class probabilities; None if no die.

    The confidence is the face's share among the six faces, so that "is it a die"
    and "which face" are judged apart: a faint die can still be read for sure.
    ``view`` is the frame's shape: a die partly out of view is unsure (see EDGE).
    """
    if c.heat < t.peak or p[0] > t.not_die:
        return None
    face = likeliest_face(p)
    conf = float(face_share(p))
    sure = conf >= t.sure and not (view is not None and _cut_by_edge(c, view))
    return Die(face if sure else None, c.x, c.y, box_corners(c), conf)


def relocate(frame: np.ndarray, found: list[Candidate], peak: float) -> list[tuple[Candidate, np.ndarray] | None]:
    """Each candidate located afresh by the detector closer up (see
    ``vision.dice.find.RELOOK_SIDE``), with its class probabilities there; None where
    no die of its size is found.  All are classified together: a forward pass has a
    fixed cost even for one patch."""
    again = [located_afresh(frame, c, peak) for c in found]
    probs = iter(classify_faces(frame, [a for a in again if a is not None]))
    return [None if a is None else (a, next(probs)) for a in again]


def wants_second_look(c: Candidate, die: Die | None, view: tuple[int, ...]) -> bool:
    """Whether the die read at candidate c is unsure and whole in view: the dice
    ``second_look`` is for (one cut by the frame's edge stays unsure, see EDGE)."""
    return die is not None and die.value is None and not _cut_by_edge(c, view)


def second_look(
    die: Die | None,
    p: np.ndarray,
    again: tuple[Candidate, np.ndarray] | None,
    by_colourfulness: np.ndarray | None,
    t: Thresholds,
    view: tuple[int, ...],
) -> Die | None:
    """An unsure die (first read as ``die`` from class probabilities ``p``) read again:
    at its fresh location ``again`` (see ``relocate``), else through ``colourfulness``
    (``by_colourfulness``: its class probabilities seen so).  The first of those
    readings that is sure and names the face the first look found likeliest (two
    looks agree) is taken, else the die stays as it was.  The look by colourfulness
    judges the face only: the die was found a die in colour.  Sure dice are returned as
    they are."""
    if die is None or die.value is not None:
        return die
    likeliest = likeliest_face(p)
    if again is not None:
        new = decide(*again, t, view)
        if new is not None and new.value == likeliest:
            return new
    q = by_colourfulness
    if q is not None and face_share(q) >= t.sure and likeliest_face(q) == likeliest:
        return replace(die, value=likeliest, confidence=float(face_share(q)))
    return die


def looks_by_colourfulness(
    frame: np.ndarray, found: list[tuple[Candidate, np.ndarray]], wanted: list[int]
) -> list[np.ndarray | None]:
    """Class probabilities of the wanted candidates (indices into ``found``) seen
    through ``colourfulness``, for ``second_look``; None for one near a stronger
    candidate (see ``_near``): it may be a part of that die, and a colourful die's
    body seen so can pass for a face."""
    free = [i for i in wanted if not any(o.heat > found[i][0].heat and _near(found[i][0], o) for o, _ in found)]
    probs = iter(classify_faces(frame, [found[i][0] for i in free], look=colourfulness))
    return [next(probs) if i in free else None for i in wanted]


def _cut_by_edge(c: Candidate, view: tuple[int, ...]) -> bool:
    """Whether the die's centre is within EDGE of its side from the frame's edge."""
    h, w = view[:2]
    return min(c.x, c.y, w - c.x, h - c.y) < EDGE * c.size


def _taught_or_pipped(c: Candidate, pipped: Die | None, symbol: tuple[str | None, float, float]) -> Die | None:
    """Settle a die that both readers claim (see FITS): unsure beats a wrong guess."""
    face, confidence, fit = symbol
    pip_sure = pipped is not None and pipped.value is not None
    if fit >= SURE_FIT or (fit >= FITS and not pip_sure):
        return Die(face, c.x, c.y, box_corners(c), confidence)
    if fit >= FITS or (pipped is not None and not pip_sure):
        return Die(None, c.x, c.y, box_corners(c), min(confidence, pipped.confidence if pipped else 0.5))
    return pipped


def read_dice(frame: np.ndarray, taught: TaughtDice | None = None) -> DiceReading:
    """Find and read every die in a BGR frame.

    ``taught`` adds symbol dice taught with ``vision.dice.taught.teach_die``; a die
    that matches one of them is read as that die's face name.
    """
    frame = check_frame(frame, "frame")
    t = thresholds()
    found = candidates(frame, t.peak, t.not_die)
    pipped = [decide(c, p, t, frame.shape) for c, p in found]
    if taught is None or not taught.dice:
        again = [i for i, (c, _) in enumerate(found) if wants_second_look(c, pipped[i], frame.shape)]
        fresh = relocate(frame, [found[i][0] for i in again], t.peak)
        for i, f, q in zip(again, fresh, looks_by_colourfulness(frame, found, again), strict=False):
            pipped[i] = second_look(pipped[i], found[i][1], f, q, t, frame.shape)
    dice: list[Die] = []
    for (c, _), die in zip(found, pipped, strict=False):
        symbol = taught.read(frame, c.x, c.y, c.size) if taught is not None and c.heat >= t.peak else None
        if symbol is not None:
            die = _taught_or_pipped(c, die, symbol)
        if die is not None:
            dice.append(die)
    dice.sort(key=lambda d: (round(d.y / 40), d.x))
    return DiceReading(tuple(dice))
