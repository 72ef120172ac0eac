"""Reading a die's top face: a small classifier on a 32x32 patch cut around each
candidate from the full frame, scaled to the die (``vision.dice.patch``), so 12 px and
80 px dice look alike; 7 classes: not a die, 1..6.  A die it is not plainly sure of is
seen again in other views (VIEW_STAGES: turned, then mirrored and cut tighter and
looser), and one still not plain after them once more as its colourfulness
(``colourfulness``): the views of one die, all here, so that the reader classifies
each candidate once."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from vision.dice.find import Candidate, near
from vision.dice.nets import nets
from vision.dice.patch import cut_patch


class View(NamedTuple):
    """One way of cutting a candidate's patch: turned by ``angle`` degrees, its box
    side times ``scale``, and ``mirrored`` left to right (a mirrored face is still the
    same face: the pip layouts are symmetric)."""

    angle: float = 0.0
    scale: float = 1.0
    mirrored: bool = False


VIEW_STAGES = (
    (View(),),
    (View(45.0),),
    (View(22.5), View(67.5)),
    (View(mirrored=True), View(scale=0.7), View(scale=1.3)),
)
"""The views the classifier sees a die in, stage by stage: a die it is not plainly
sure of (see PLAIN) after one stage gets the next, and the probabilities of all its
views are averaged.  A view at 45 degrees sees diagonal pips square-on, which halved
the faces the classifier was unsure of; the third stage, for dice still not plain
after two views, reads a few more right and fewer wrong for about a millisecond a
photo.  The fourth, for dice still not plain after four turns, changes what the
turns share: the patch mirrored, and the box cut 30% tighter and looser, so that a
box stretched over a neighbour or off the die's size is seen once without it and
once with more around it.  Turned views of one cut share its mistakes and agree on
them.  On the held-out photos' 28 sets this stage took the wrong values from 17 to 7
and the extra dice from 80 to 43, for 23 more missed (cuts 15% off: 11 wrong, 64
extra); the figures are in ``docs/experiments/2026-12-dice-not-a-die.md``."""
PLAIN = 0.9
"""Views whose mean face share reaches this, with P(not a die) under NOT_PLAIN, need
no more views: dice then read as with two views for every die, at little more than
one view a die on average (one view for every die misreads more)."""
NOT_PLAIN = 0.15
VIEWS = sum(len(stage) for stage in VIEW_STAGES)
"""The most views a candidate gets: the mean P(not a die) over all of them is at least
its sum so far over VIEWS, which bounds what more views can change (see
``classify_faces``)."""
FACE_BATCH = 16
"""Patches classified per forward pass: cv2.dnn keeps every layer's output for the
whole batch, so a roll of many dice in one pass costs megabytes more peak memory than
chunks of 16, and chunks cost no speed."""


COLOUR_WEIGHT = 2.0
"""How much darker a pixel turns per step of colourfulness away from the body's
(``colourfulness``): a faint red pip on a black die turns dark.  2, 3 and 4 read the
held-out photos' variations alike (2 reads two to eight dice more right); the figures
are in ``docs/experiments/2026-12-dice-not-a-die.md``."""
COLOURED = 20.0
"""A face whose colourfulness strays this far from its body's (the 98th percentile
over the middle of the patch: a 1's single pip is a tenth of it) has colours to see
(``_coloured``).  A black-and-white die seen by colourfulness is its own grey patch,
one more look at the same face, which read 12 px dice surely wrong; on the held-out
photos those strayed at most 16 (JPEG noise), the coloured faces it rescued 26 or
more."""


def _middle(patch: np.ndarray) -> np.ndarray:
    """The middle half of a patch: the die's face, without the table around it."""
    m = patch.shape[0] // 4
    return patch[m:-m, m:-m]


def _chroma(patch: np.ndarray) -> np.ndarray:
    """Each pixel's colourfulness: its brightest channel minus its darkest."""
    return (patch.max(axis=2) - patch.min(axis=2)).astype(np.float32)


def colourfulness(patch: np.ndarray) -> np.ndarray:
    """The patch in grey, the die's body made light (the grey inverted where the middle
    of the patch is dark), and each pixel darkened by how far its colourfulness lies
    from the body's: red or gold pips on a black or white die, or white pips on a
    purple one, become dark pips on a light face, which the classifier reads like any
    dark-pipped light die, where in colour they are barely lighter or darker than the
    body around them.

    The body and its edge stay in view.  Seen as colourfulness alone (a grey body is
    0 there) a die was a lone bright dot on black, which a classifier that tells dice
    from specks by their body reads as a speck; and a coloured body turned as bright
    as its pips.  The look counts only where it names the face the colour views found
    likeliest, and more surely (``_in_colourfulness``)."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if np.median(_middle(grey)) < 128:
        grey = 255 - grey
    chroma = _chroma(patch)
    seen = np.clip(grey - COLOUR_WEIGHT * np.abs(chroma - np.median(_middle(chroma))), 0, 255)
    return cv2.merge([seen.astype(np.uint8)] * 3)


def _coloured(frame: np.ndarray, c: Candidate) -> bool:
    """Whether the candidate's face shows colours other than its body's (COLOURED)."""
    chroma = _middle(_chroma(cut_patch(frame, c.x, c.y, c.size)))
    return float(np.percentile(np.abs(chroma - np.median(chroma)), 98)) >= COLOURED


def _cut(frame: np.ndarray, c: Candidate, view: View) -> np.ndarray:
    """The candidate's patch as ``view`` cuts it."""
    patch = cut_patch(frame, c.x, c.y, c.size * view.scale, view.angle)
    return cv2.flip(patch, 1) if view.mirrored else patch


def _face_probs(
    frame: np.ndarray,
    found: list[Candidate],
    views: tuple[View, ...],
    look: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Class probabilities (not a die, 1..6) of each candidate, summed over its
    ``views``, each patch seen through ``look`` if given: all views in the same
    forward passes (each pass has a fixed cost on top of its patches)."""
    patches = [_cut(frame, c, view) for view in views for c in found]
    if look is not None:
        patches = [look(patch) for patch in patches]
    _, faces = nets()
    chunks = []
    for start in range(0, len(patches), FACE_BATCH):
        faces.setInput(cv2.dnn.blobFromImages(patches[start : start + FACE_BATCH]))
        chunks.append(faces.forward())
    logits = np.concatenate(chunks)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(len(views), len(found), -1).sum(axis=0)


def face_share(p: np.ndarray) -> np.ndarray:
    """The likeliest face's share among the six faces, for one row of class
    probabilities (not a die, 1..6) or each row of many: how sure the face is,
    judged apart from whether it is a die at all."""
    return p[..., 1:].max(axis=-1) / np.maximum(1e-6, 1.0 - p[..., 0])


def likeliest_face(p: np.ndarray) -> int:
    """The face (1..6) one row of class probabilities (not a die, 1..6) finds likeliest."""
    return int(np.argmax(p[1:])) + 1


def _plain(p: np.ndarray) -> np.ndarray:
    """Which rows of class probabilities are plainly one face (see PLAIN)."""
    return (face_share(p) >= PLAIN) & (p[:, 0] < NOT_PLAIN)


def classify_faces(
    frame: np.ndarray, found: list[Candidate], give_up: float = 1.0, sure: float | np.ndarray = 0.0
) -> np.ndarray:
    """Class probabilities (not a die, 1..6) for each candidate, shape (n, 7): the
    mean over the VIEW_STAGES it needed, and for one whose face share stays under
    ``sure`` the face share of its views in colourfulness where they agree
    (``_in_colourfulness``; the default 0 sees none so).

    A candidate whose mean P(not a die) could no longer fall to ``give_up`` even if
    all its remaining views said 0 gets no more views: with the reader's ``not_die``
    threshold as ``give_up`` that spares the views of candidates it drops anyway,
    without changing a reading (1.0, the default, gives every candidate that is not
    plain all its views, as the threshold picker needs).  With the reader's ``sure``
    threshold as ``sure`` (one for each candidate, where it depends on the die's
    size), only the dice it would leave unsure are seen in colourfulness; 1.0 sees
    every die so, which gives every ``sure`` the threshold picker tries the values
    the reader would give.  ``found`` is strongest first,
    as ``vision.dice.find.find_dice`` gives it."""
    if not found:
        return np.zeros((0, 7), np.float32)
    p = _views(frame, found, give_up)
    return _in_colourfulness(frame, found, p, give_up, sure)


def _views(
    frame: np.ndarray,
    found: list[Candidate],
    give_up: float,
    look: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """The mean class probabilities over the VIEW_STAGES each candidate needed (see
    ``classify_faces``), each patch seen through ``look`` if given."""
    total = _face_probs(frame, found, VIEW_STAGES[0], look)
    views = np.full(len(found), len(VIEW_STAGES[0]))
    going = np.ones(len(found), bool)
    for stage in VIEW_STAGES[1:]:
        going &= ~_plain(total / views[:, None]) & (total[:, 0] / VIEWS <= give_up)
        again = np.flatnonzero(going)
        if not again.size:
            break
        total[again] += _face_probs(frame, [found[i] for i in again], stage, look)
        views[again] += len(stage)
    return total / views[:, None]


def _in_colourfulness(
    frame: np.ndarray, found: list[Candidate], p: np.ndarray, give_up: float, sure: float | np.ndarray
) -> np.ndarray:
    """``p`` with the face share of each candidate read less surely than ``sure`` (and
    not given up) taken from its views in colourfulness, where those name the face
    ``p`` finds likeliest, more surely; P(not a die) stays the colour views' (the look
    judges the face only).  A candidate near a stronger one (``near``) is not
    seen so: it may be a part of that die, and a colourful die's body seen so can pass
    for a face; nor is one with no colours to see (``_coloured``)."""
    unsettled = (face_share(p) < sure) & (p[:, 0] <= give_up)
    wanted = [
        i
        for i, c in enumerate(found)
        if unsettled[i] and not any(o.heat > c.heat and near(c, o) for o in found) and _coloured(frame, c)
    ]
    if not wanted:
        return p
    q = _views(frame, [found[i] for i in wanted], 1.0, colourfulness)
    for i, qi in zip(wanted, q, strict=True):
        if likeliest_face(qi) == likeliest_face(p[i]) and face_share(qi) > face_share(p[i]):
            p[i, 1:] = qi[1:] / max(1e-6, 1.0 - qi[0]) * (1.0 - p[i, 0])
    return p
