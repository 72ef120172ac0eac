"""Reading dice in one frame, in four stages, each once: find, cut, classify, decide.

1. find: the detector finds die centres and sizes at the scale the dice show in
   (``vision.dice.find``);
2. cut: a patch is cut around each, scaled to the die (``vision.dice.patch``);
3. classify: the face classifier gives each patch its class probabilities (not a die,
   1..6) from a few views (turned, mirrored, cut tighter and looser) and, for a die
   still unsure, as its colourfulness
   (``vision.dice.faces``); the dice taught with ``vision.dice.taught`` are one more
   classifier, by correlation with their faces;
4. decide: each candidate is a sure die, an unsure one, or not a die (``decide``).

Each rule of these stages is kept because switching it off measurably read more
dice wrong, missed or where none lies; the figures, and the looks that were dropped,
are in ``docs/experiments/2026-12-dice-pipeline.md``.

Both networks were trained on real tray photos (see ``training/train_dice.py``) and
run with OpenCV's dnn module, so the box needs no deep-learning runtime.

A die whose face the classifier is not sure of gets ``value=None`` rather than a
guess: the host page asks a player to confirm it, which costs one tap, whereas a
wrong value silently changes the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.dice.faces import classify_faces, face_share, likeliest_face
from vision.dice.find import Candidate, find_dice, near
from vision.dice.nets import Thresholds, thresholds
from vision.images import check_frame

if TYPE_CHECKING:
    from vision.dice.taught import TaughtDice

FITS, SURE_FIT = 0.8, 0.9
"""Correlations with a taught die's faces: pipped dice of the same colour reach
between the two against symbol faces (measured with a drawn symbol die), true faces
from FITS up.  So a taught face wins over an unsure pip reading from FITS, over a
sure one only from SURE_FIT; in between the die is reported unsure."""

PIP = 2.0
"""A 1 whose centre lies in the box of a candidate more than this times its side is
one of that die's pips (``_a_pip``): a pip is a quarter to a third of its die's side.
At 1.67 times a real 1 was lost, boxed at 0.55 of a box the detector had stretched
over it and its neighbour (``docs/experiments/2026-12-dice-not-a-die.md``)."""

EDGE = 0.2
"""A die whose centre lies within this share of its side from the frame's edge has a
third or more of its face out of view: it is reported unsure, never with a value
read from half a face.  That costs a few right readings and removes wrong values and
values where no die is labelled; a wider margin costs more right for no fewer
errors."""


OFF_CENTRE = 0.25
"""An unsure die whose centre lies within this share of a sure die's side from that
die's centre (on both axes) is that die seen off-centre, not a die of its own: two
dice cannot lie so close.  The echo rule (``candidates``) misses it because the
off-centre look reads another face, too unsure to report.  At 0.25, on the tuning
scenes' cached candidates, it dropped 3 unsure dice where none lies for one unsure
die lost; at 0.3, 4 for 2 (``docs/experiments/2026-12-dice-not-a-die.md``)."""


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
    frame: np.ndarray, peak: float | None = None, give_up: float = 1.0, sure: float | Callable[[float], float] = 0.0
) -> list[tuple[Candidate, np.ndarray]]:
    """Every die candidate with its class probabilities (stages 1-3), echoes dropped:
    the one way the reader, the taught-die teacher and the threshold picker see dice.
    An echo is a weaker candidate near a stronger one (``vision.dice.find.near``)
    that reads the same face: that die seen off-centre, not a second die (a touching
    die reads its own face and stays); without this rule a die the detector marked
    between it and its neighbour was read as the neighbour's face.  A pip of a die
    taken for a die of its own is dropped too (see PIP).  ``give_up`` and ``sure``:
    see ``vision.dice.faces.classify_faces``; ``sure`` may be given per box side
    (``Thresholds.sure_for``)."""
    found = find_dice(frame, peak)
    gate = np.array([sure(c.size) for c in found]) if callable(sure) else sure
    probs = classify_faces(frame, found, give_up, gate)
    kept: list[tuple[Candidate, np.ndarray]] = []
    for c, p in zip(found, probs, strict=True):
        if not any(near(c, o) and likeliest_face(p) == likeliest_face(q) for o, q in kept):
            kept.append((c, p))
    return [(c, p) for c, p in kept if not _a_pip(c, p, kept)]


def _a_pip(c: Candidate, p: np.ndarray, kept: list[tuple[Candidate, np.ndarray]]) -> bool:
    """Whether ``c`` reads as a 1 and lies inside the box of a candidate more than
    PIP times its side: a pip of that die seen as a die of its own (a die's top face
    holds no smaller die), which the echo rule keeps because it reads another face."""
    return likeliest_face(p) == 1 and any(
        c.size * PIP < o.size and abs(c.x - o.x) < o.size / 2 and abs(c.y - o.y) < o.size / 2 for o, _ in kept
    )


def box_corners(c: Candidate) -> tuple[tuple[float, float], ...]:
    """The die's box as four corners, clockwise from top-left."""
    r = c.size / 2
    return ((c.x - r, c.y - r), (c.x + r, c.y - r), (c.x + r, c.y + r), (c.x - r, c.y + r))


def decide(
    c: Candidate,
    p: np.ndarray,
    t: Thresholds,
    view: tuple[int, ...] | None = None,
    symbol: tuple[str | None, float, float] | None = None,
) -> Die | None:
    """The die a candidate is, given its class probabilities ``p`` and, where the
    taught dice claim it, their reading ``symbol`` (``TaughtDice.read``): sure,
    unsure (value None) or None, not a die.

    The confidence of a pipped die is the face's share among the six faces, so that
    "is it a die" and "which face" are judged apart: a faint die can still be read for
    sure.  ``view`` is the frame's shape: a die partly out of view is unsure (see EDGE).
    """
    pipped = None
    if c.heat >= t.peak and p[0] <= t.not_die:
        conf = float(face_share(p))
        sure = conf >= t.sure_for(c.size) and not (view is not None and _cut_by_edge(c, view))
        pipped = Die(likeliest_face(p) if sure else None, c.x, c.y, box_corners(c), conf)
    return pipped if symbol is None else _taught_or_pipped(c, pipped, symbol)


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


def on_their_own(dice: list[Die]) -> list[Die]:
    """``dice`` without the unsure ones that are a sure die seen off-centre (see
    OFF_CENTRE): the last step of a reading, for the reader and the threshold picker."""
    return [d for d in dice if not _off_centre(d, dice)]


def _off_centre(d: Die, dice: list[Die]) -> bool:
    """Whether ``d`` is unsure and lies within OFF_CENTRE of a sure die's side from
    its centre: that die seen off-centre."""
    return d.value is None and any(
        o.value is not None and abs(d.x - o.x) < OFF_CENTRE * _side(o) and abs(d.y - o.y) < OFF_CENTRE * _side(o)
        for o in dice
    )


def _side(d: Die) -> float:
    """The side of a die's box."""
    return d.corners[1][0] - d.corners[0][0]


def read_dice(frame: np.ndarray, taught: TaughtDice | None = None) -> DiceReading:
    """Find and read every die in a BGR frame.

    ``taught`` adds symbol dice taught with ``vision.dice.taught.teach_die``; a die
    that matches one of them is read as that die's face name.
    """
    frame = check_frame(frame, "frame")
    t = thresholds()
    dice: list[Die] = []
    for c, p in candidates(frame, t.peak, t.not_die, t.sure_for):
        symbol = taught.read(frame, c.x, c.y, c.size) if taught is not None else None
        die = decide(c, p, t, frame.shape, symbol)
        if die is not None:
            dice.append(die)
    dice = on_their_own(dice)
    dice.sort(key=lambda d: (round(d.y / 40), d.x))
    return DiceReading(tuple(dice))
