"""Finding dice in a frame: the detector's heat peaks, each a die centre with its box
side and how sure the detector is (its heat); faces are read elsewhere
(``vision.dice.faces``).

The detector first finds the scale of the dice: it looks at the frame shrunk to
128 px (COARSE_SIDE), where dice up to half the frame show whole, then, unless those
are large dice, at ~320 px (again at a finer scale where the dice it found are small
there: DIE_IN_DETECTOR).  Where neither found a die it is confident of in a large
frame, the dice may be far off (a phone photo of the whole table): it looks over the
whole frame at half size, tile by tile (FAR_ZOOM).  It marks die centres as heatmap
peaks with the die size (plain 3x3 convolutions only: cv2.dnn has no fast path for
dilated ones); peaks separate touching dice (and where one box is stretched over two,
a closer look finds the second: CLOSER), and nothing assumes a particular table colour
(the benchmark reads a dark table too).  How each constant below was chosen, with its
figures, is in ``docs/experiments/2026-11-dice-reader.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.nets import nets, thresholds
from vision.dice.patch import shrunk

DETECTOR_SIDE = 320
"""The frame's longer side is shrunk to this for the detector's first look: a 640 px
photo halves, which keeps the detector cheap on one core; where that shows the dice
too small, it looks again at a finer scale (DIE_IN_DETECTOR)."""
DIE_IN_DETECTOR = (18.0, 26.0, 40.0)
"""(lower, middle, upper) die side, in pixels of the detector's input, for its second
look.  The detector finds dice best at 20-30 px in its input and misses more the
smaller they show, and the box's 1280x720 camera frame, shrunk for the first look,
shows a 16 mm die at ~11 px.  So when the median of the dice the first look is sure
of (heat from CLOSER_HEAT) shows smaller than the lower bound, or larger than the
upper one (large dice, whose pips it starts to take for dice), the detector looks
again (``_rescaled_look``) at the scale that shows that median at the middle number,
over the part of the frame around the first look's peaks (AROUND), its input at most
DETECTOR_MAX_PIXELS and at most MAX_ZOOM times the frame.  A higher lower bound also
re-reads photos whose dice the first look already sees well, and there side faces of
packed dice came back read as dice."""
DETECTOR_MAX_PIXELS = 3 * DETECTOR_SIDE**2 // 2
"""The input of the detector's second look is at most this many pixels (1.5 times a
320 px square): cv2.dnn's memory grows with the detector's input, and this keeps the
reader under its 80 MB peak memory target, reading as well as a larger input did."""
AROUND = 2.0
"""The detector's second look covers the first look's peaks and this many die sides
around them: the tray, not the whole play area, which lets the same pixels show dice
larger."""
COARSE_SIDE = 128
"""The frame's longer side is first shrunk to this, to find the scale of the dice
(``_first_look``): there dice of a seventh of the longer side to half the shorter one
show at 18-48 px, and the tray's 40 px dice at 8 px; the look costs a sixth of the
DETECTOR_SIDE look."""
MAX_ZOOM = 2.0
"""The second look may enlarge the frame up to this: dice of 12-15 px (a small frame,
or a camera far away) show too small to the detector even at full size."""
STRIDE = 4
APART = 0.3
"""Two heat peaks closer than this times their mean die side are one die.  The 3x3
local maximum already keeps one peak per die; this merges the double peak a big die
sometimes gives (two real dice lie about one side apart, centre to centre).  The
old rule, no peak within half the *larger* side, dropped dice touching a bigger
neighbour whose box the detector had stretched over both; larger values miss more
touching dice."""
CLOSER, CLOSER_ZOOM, CLOSER_HEAT = 1.2, 2.0, 0.3
"""Two touching dice sometimes give the detector one peak with a box stretched over
both.  A confident die (heat at least CLOSER_HEAT) whose box is CLOSER times the
median confident die or more is looked at again: the detector runs on its
surroundings at CLOSER_ZOOM times the scale, and new peaks of a die's size (0.7-1.5
times the median) are candidates like any other; without that size rule the pips of
the zoomed dice come back as dice.  Most photos need no such window."""
FAR_ZOOM = 0.5
"""Where the first look finds no die it is confident of in a frame it had to shrink
below this, the detector looks again at this scale, tile by tile (``_far_off``): a phone
photo of the whole table shows its dice at 1-2% of the frame (30-60 px in 2400-4000
px), 4-8 px in the first look's input, where the detector sees nothing.  At this
scale dice from ~20 px in the frame show at the ~10 px from which the detector finds
them (a 1280x720 frame's 39 px dice read 307 of 309 at 9.75 px)."""
FAR_PEAK = 0.15
"""The heat a peak of the far look needs (the first look's is ``peak``, 0.1): the far
look covers up to 30 times the first look's area, and the table's false peaks grow
with it while the dice do not.  On the held-out photos' far scenes, at 0.15 instead of
0.1 wood grain gave 911 peaks instead of 5114 over 10 photos, for 130 of 131 dice
found instead of 131 (cloth: 105 of 134 instead of 113)."""
TILE_MARGIN = 48
"""Each tile of the far look overlaps its neighbours by this many pixels of the
detector's input, more than the largest die it finds well (DIE_IN_DETECTOR[2]), so
every die lies whole in the tile that keeps its centre."""
NEAR = 0.5
"""Two candidates nearer than this times the larger side lie on one die's box: a
weaker one there may be that die seen off-centre or a part of it (see ``near``)."""


@dataclass(frozen=True)
class Candidate:
    """A detector peak: centre and box side in frame pixels, and its heat."""

    x: float
    y: float
    size: float
    heat: float


def find_dice(frame: np.ndarray, peak: float | None = None) -> list[Candidate]:
    """Die centres and sizes in a BGR frame, strongest first, then any found by
    looking closer at stretched boxes (see CLOSER)."""
    peak = thresholds().peak if peak is None else peak
    zoom, peaks = _first_look(frame, peak)
    zoom, peaks = _rescaled_look(frame, peaks, zoom, peak)
    if _far_off(peaks, zoom):
        zoom, peaks = _rescaled_look(frame, _tiled_peaks(frame, FAR_ZOOM, max(peak, FAR_PEAK)), FAR_ZOOM, peak)
    found: list[Candidate] = []
    for c in sorted(peaks, key=lambda c: -c.heat):
        if _apart(c, found):
            found.append(c)
    return found + _look_closer(frame, found, zoom, peak)


def _first_look(frame: np.ndarray, peak: float) -> tuple[float, list[Candidate]]:
    """The scale of the dice: the detector's peaks at DETECTOR_SIDE, unless its look
    at COARSE_SIDE shows dice too large for DETECTOR_SIDE (from DIE_IN_DETECTOR[2]
    there up) and those read as dice, surely (the ``sure`` threshold) and more surely
    than the finer look's (``_sureness``).  A die far above the
    detector's range shows it pips of a die's size, which no finer look can undo; the
    coarse look sees such a die whole, and the tray's dice so small that it does not
    take them for large ones.  Returns the scale and the peaks."""
    longer = max(frame.shape[:2])
    coarse, zoom = min(1.0, COARSE_SIDE / longer), min(1.0, DETECTOR_SIDE / longer)
    fine = _peaks(frame, zoom, peak)
    if coarse == zoom:
        return zoom, fine
    peaks = _peaks(frame, coarse, peak)
    typical = _typical_size(peaks)
    if typical is None or typical * zoom < DIE_IN_DETECTOR[2]:
        return zoom, fine
    large = _sureness(frame, peaks)
    return (coarse, peaks) if large >= thresholds().sure and large > _sureness(frame, fine) else (zoom, fine)


def _sureness(frame: np.ndarray, peaks: list[Candidate]) -> float:
    """How surely the confident peaks of a look read as dice: the median face share
    (``vision.dice.faces.face_share``) times P(a die).  Which look's dice are real is
    settled so: a large die's pips, taken for dice by the finer look, read less surely
    than the die seen whole, and a packed group of small dice, taken for one large die
    by the coarse look, less surely than each die seen by the finer one."""
    from vision.dice.faces import classify_faces, face_share  # faces imports Candidate from here

    sure = [c for c in peaks if c.heat >= CLOSER_HEAT]
    if not sure:
        return 0.0
    p = classify_faces(frame, sure)
    return float(np.median(face_share(p) * (1.0 - p[:, 0])))


def _rescaled_look(
    frame: np.ndarray, peaks: list[Candidate], zoom: float, peak: float
) -> tuple[float, list[Candidate]]:
    """The detector's peaks again at a scale that shows the dice at DIE_IN_DETECTOR[1]
    pixels, over the part of the frame around the first look's peaks, if the first
    look (``peaks`` at ``zoom``) showed them too small or too large (see
    DIE_IN_DETECTOR); else the first look's.  Returns the scale and the peaks."""
    typical = _typical_size(peaks)
    small, target, large = DIE_IN_DETECTOR
    if typical is None or small <= typical * zoom <= large:
        return zoom, peaks
    r = AROUND * typical
    x0, y0 = max(int(min(c.x for c in peaks) - r), 0), max(int(min(c.y for c in peaks) - r), 0)
    x1, y1 = (
        min(int(max(c.x for c in peaks) + r), frame.shape[1]),
        min(int(max(c.y for c in peaks) + r), frame.shape[0]),
    )
    better = min(target / typical, MAX_ZOOM, math.sqrt(DETECTOR_MAX_PIXELS / max(1, (x1 - x0) * (y1 - y0))))
    if abs(better - zoom) <= 0.1 * zoom:
        return zoom, peaks
    return better, _peaks(frame[y0:y1, x0:x1], better, peak, x0, y0)


def _far_off(peaks: list[Candidate], zoom: float) -> bool:
    """Whether the dice may lie too far for the looks so far: they saw the frame shrunk
    below FAR_ZOOM and found no die they are confident of (heat from CLOSER_HEAT).  A
    look that found dice, however unsure, saw them at a size it reads (large dice,
    whose pips a far look would take for dice).  The far look then runs over the whole
    frame, tile by tile (``_tiled_peaks``), and is rescaled like the first."""
    return zoom < FAR_ZOOM and _typical_size(peaks) is None


def _tiled_peaks(frame: np.ndarray, zoom: float, peak: float) -> list[Candidate]:
    """``_peaks`` over the frame in tiles whose inputs are at most DETECTOR_MAX_PIXELS,
    overlapping by TILE_MARGIN; each tile keeps the peaks of its own part."""
    h, w = frame.shape[:2]
    core = int((math.sqrt(DETECTOR_MAX_PIXELS) - 2 * TILE_MARGIN) / zoom)
    margin = int(TILE_MARGIN / zoom)
    found: list[Candidate] = []
    for y in range(0, h, core):
        for x in range(0, w, core):
            x0, y0 = max(x - margin, 0), max(y - margin, 0)
            tile = frame[y0 : min(y + core + margin, h), x0 : min(x + core + margin, w)]
            own = (c for c in _peaks(tile, zoom, peak, x0, y0) if x <= c.x < x + core and y <= c.y < y + core)
            found.extend(own)
    return found


def near(c: Candidate, other: Candidate) -> bool:
    """Whether two candidates lie nearer than NEAR times the larger side: the reader
    drops the weaker one as an echo where it reads the same face
    (``vision.dice.read.candidates``), and does not see it in colourfulness
    (``vision.dice.faces``)."""
    return math.hypot(c.x - other.x, c.y - other.y) < NEAR * max(c.size, other.size)


def _apart(c: Candidate, found: list[Candidate]) -> bool:
    """Whether c is not a second peak of a die already found (see APART)."""
    return all(math.hypot(c.x - o.x, c.y - o.y) > APART * (c.size + o.size) / 2 for o in found)


def _peaks(image: np.ndarray, zoom: float, peak: float, x0: int = 0, y0: int = 0) -> list[Candidate]:
    """The detector's heat peaks in an image scaled by ``zoom``, in the coordinates of
    the frame the image was cut from at (x0, y0)."""
    h, w = image.shape[:2]
    # The detector halves its input four times and adds each level to the one above.
    dh, dw = max(16, round(h * zoom / 16) * 16), max(16, round(w * zoom / 16) * 16)
    if zoom < 1:
        small, sx, sy = shrunk(image, dw, dh)
    else:
        small, sx, sy = cv2.resize(image, (dw, dh), interpolation=cv2.INTER_LINEAR), w / dw, h / dh
    det, _ = nets()
    det.setInput(_blob(small))
    out = det.forward()[0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    local_max = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= local_max) & (heat >= peak))
    peaks = []
    for iy, ix in zip(ys.tolist(), xs.tolist(), strict=False):
        gx, gy = _refine(heat, ix, iy)
        size = math.exp(float(out[1, iy, ix])) * (sx + sy) / 2
        peaks.append(Candidate(x0 + (gx + 0.5) * STRIDE * sx, y0 + (gy + 0.5) * STRIDE * sy, size, float(heat[iy, ix])))
    return peaks


def _look_closer(frame: np.ndarray, found: list[Candidate], zoom: float, peak: float) -> list[Candidate]:
    """Dice hidden under a stretched box (see CLOSER): the detector run again on the
    box's surroundings at CLOSER_ZOOM times the scale; new peaks of a die's size count."""
    typical = _typical_size(found)
    if typical is None:
        return []
    more: list[Candidate] = []
    for c in found:
        if c.heat < CLOSER_HEAT or c.size < CLOSER * typical:
            continue
        for n in sorted(_peaks_around(frame, c, zoom * CLOSER_ZOOM, peak), key=lambda n: -n.heat):
            if _die_sized(n, typical) and _apart(n, found + more):
                more.append(n)
    return more


def _typical_size(found: list[Candidate]) -> float | None:
    """The median box side of the candidates the detector is confident of (heat from
    CLOSER_HEAT), the size a die has in this frame; None if there are none."""
    sizes = [c.size for c in found if c.heat >= CLOSER_HEAT]
    return float(np.median(sizes)) if sizes else None


def _die_sized(n: Candidate, expected: float) -> bool:
    """Whether a peak of a closer look is a die of the expected size: seen closer, the
    detector also marks the pips of a die (smaller) and two dice as one (larger)."""
    return 0.7 * expected <= n.size <= 1.5 * expected


def _peaks_around(frame: np.ndarray, c: Candidate, zoom: float, peak: float) -> list[Candidate]:
    """The detector's peaks in the window of 1.5 die sides around candidate c, with
    the window scaled by ``zoom``: a closer look at one die and its neighbours."""
    r = int(1.5 * c.size)
    x0, y0 = max(int(c.x) - r, 0), max(int(c.y) - r, 0)
    return _peaks(frame[y0 : int(c.y) + r, x0 : int(c.x) + r], zoom, peak, x0, y0)


def _blob(image: np.ndarray) -> np.ndarray:
    """A BGR image as the detector's (1, 3, h, w) float input, as
    ``cv2.dnn.blobFromImage`` makes it, by a channel split: cheaper than that call on
    OpenCV 5 (the tests check both give the same input)."""
    out = np.empty((1, 3, *image.shape[:2]), np.float32)
    for i, channel in enumerate(cv2.split(image)):
        out[0, i] = channel
    return out


def _refine(heat: np.ndarray, ix: int, iy: int) -> tuple[float, float]:
    """Sub-cell peak position: the heat-weighted centroid of the 3x3 neighbourhood."""
    y0, x0 = max(iy - 1, 0), max(ix - 1, 0)
    win = heat[y0 : iy + 2, x0 : ix + 2]
    total = float(win.sum())
    gx = float(win.sum(axis=0) @ np.arange(x0, x0 + win.shape[1])) / total
    gy = float(win.sum(axis=1) @ np.arange(y0, y0 + win.shape[0])) / total
    return gx, gy
