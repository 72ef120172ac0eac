"""What a straightened card looks like, as one vector that nearest-neighbour search can use.

Plain cards (SET, policy cards) differ only in ink colour, count, fill and shape, so
texture alone (keypoints) cannot tell them apart; illustrated cards differ mostly in
texture.  The descriptor joins parts, each scaled so that Euclidean distance between
two descriptors adds up how different two cards look in every respect:
* silhouette: the printed marks with their insides filled, on a fine grid (count, shape);
* fill: how much of those silhouettes is inked (solid, striped, empty) and the coarse
  ink map, both relative to the card's own ink strength;
* hues: a histogram of ink hues, after white-balancing on the card's own paper so a
  warm lamp does not turn red into orange; chroma: where on the card which colours are;
* texture: gradient-orientation histograms (HOG-like) of the lightness, for pictures;
* contrast: how strong the card's darkest print is (log): glare or a washed-out photo
  erases faint detail such as stripes, and then the card must not be named at all.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

DESCRIBE_SIZE = (96, 144)
"""(width, height) the card is described at: stripes and outlines still a pixel or two."""

MARGIN = 0.06
"""Fraction trimmed off each side: rounded corners and a sloppy outline live there."""

WARP_SIZE = (108, 164)
"""A card warped to this size is DESCRIBE_SIZE once trimmed: reading warps straight to
it, skipping a resize (the catalog keeps larger images, for people to look at)."""

PAPER_KERNEL = (41, 41)
"""Local paper lightness is a morphological closing over this window (see
:func:`_local_paper`): wider than a printed mark, solid ones included (a SET shape is
~37 px tall here), so ink is never taken for paper.  On the enrol photos the fill of
empty and striped cards, which a sharp shadow across a card had made overlap, came
0.028 apart with the old smoothed maximum filter and 0.068 with this closing (0.071 at
51); at 31 px solid shapes were taken for paper (solid fill down to 0.46)."""
MIN_CHROMA = 10.0
"""Pixels paler than this chroma (Lab units) are paper or a grey shadow: no hue vote."""
BORDER = 4
"""Pixels of the trimmed card ignored by the ink features (see :func:`_blank_border`)."""
BRIDGE = 2
"""Gaps up to twice this (pixels) in a printed outline are bridged before filling;
printed shapes further apart than that stay separate."""
INTERIOR = 4
"""Pixels shaved off a silhouette before measuring its fill, so the outline is not counted."""
MARK_LEVEL = 0.3
"""A pixel is part of a printed mark when it stands out from its surroundings by this
fraction of the card's strongest contrast, so faint and bold printing give the same
silhouette."""
CONTRAST_WINDOW = 9
"""Pixels around which 'surroundings' are averaged when finding marks."""
CLIPPED_LEVEL = 250
"""A pixel whose every channel is at least this (0-255) is washed out to white: the
camera clipped it, and whatever faint print lay there is gone."""
SOFT_VIEWS: tuple[float, ...] = (1.2,)
"""Blurs (sigma, description pixels) of the extra views each taught card is described in.
Fine stripes blur into a lighter solid and thin outlines fade, so a soft photo's fill
and layout drift from the sharp card's; rather than blur every card (which costs sharp
photos of fine-striped cards), the deck holds the card sharp and soft and a photo
matches whichever is nearer.  Chosen on blurred variations of the enrol photos (alone
and with tilt, dim and warm light): one view at 1.2 read them as well as a fixed blur
of every card did, a weaker or stronger blur worse, two views no better."""
CONTRAST_BLUR = 2.5
"""Blur (sigma, pixels) before measuring the card's print contrast (see _contrast)."""

LAYOUT_GRID = (6, 9)
SILHOUETTE_GRID = (16, 24)
CHROMA_GRID = (4, 6)
HUE_BINS = 24
HUE_FLOOR = (0.012, 0.03)
"""Mean chroma above MIN_CHROMA (per pixel) from which a card's hue histogram fades in
(zero below the first, full above the second): a black-and-white card's few coloured
pixels are a photo's noise (JPEG, a tinted lamp), and a unit-length histogram of noise
made such a card look unlike itself in colour (photos of black cards: up to 0.0102;
the faintest SET card, one pale shape, 0.051)."""
HUE_SPREAD = 2.0
"""Each inked pixel votes into neighbouring hue bins (Gaussian, in bins): the same ink
drifts by a bin or two between lamps and cameras, three bins apart is another colour."""
TEXTURE_CELL = 12
"""Pixels per HOG cell side; divides DESCRIBE_SIZE."""
ORIENT_BINS = 8
"""A power of two: a bin index wraps round with a bit mask, far cheaper than %."""

TOLERANCES = {
    "silhouette": 0.06,
    "fill": 0.06,
    "layout": 0.06,
    "hues": 0.23,
    "chroma": 0.085,
    "texture": 0.36,
    "contrast": 0.3,
}
"""How far each part of the same card wanders between photos (about the 95th percentile,
measured on the cards-set photos, enrol against test: two cameras, several days and
lamps; contrast set by hand).  Each part is divided by its tolerance, so a distance of
1 in any part is ordinary photo-to-photo noise."""
PARTS = tuple(TOLERANCES)


def _hue_spread_matrix() -> np.ndarray:
    """Circular Gaussian smoothing of a hue histogram, as a matrix product."""
    offsets = np.arange(HUE_BINS)[:, None] - np.arange(HUE_BINS)[None, :]
    offsets = np.minimum(np.abs(offsets), HUE_BINS - np.abs(offsets))
    return np.exp(-0.5 * (offsets / HUE_SPREAD) ** 2).astype(np.float32)


_HUE_SPREAD = _hue_spread_matrix()


def _unit(v: np.ndarray) -> np.ndarray:
    """``v`` flattened and scaled to length 1 (a blank part stays zero)."""
    v = v.astype(np.float32).ravel()
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v


def _grid(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` area-averaged onto a grid, flattened, scaled so a grid of ones has length 1."""
    grid = cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32).ravel()
    return grid / np.sqrt(grid.size)


class Lighting(NamedTuple):
    """How trustworthy a card's faint print is: how evenly its paper is lit (darkest /
    brightest local paper level, 1.0 = even; see :func:`tint_map`) and the fraction of
    the card washed out to white (see CLIPPED_LEVEL).  A lamp's reflection lowers the
    first or raises the second; the reader is then stricter (see vision.cards)."""

    evenness: float
    clipped: float


def _every(image: np.ndarray, step: int) -> np.ndarray:
    """Every ``step``-th pixel of every ``step``-th row, as a contiguous image.  OpenCV's
    nearest-pixel resize by an exact fraction picks exactly those pixels, several times
    faster than numpy copies a strided view (this runs on every card of every frame)."""
    h, w = image.shape[:2]
    if h % step or w % step:
        return np.ascontiguousarray(image[::step, ::step])
    return cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)


def _clipped(sample: np.ndarray) -> float:
    """Fraction of a sample of the card's pixels whose channels all clip to white."""
    white = cv2.inRange(sample, (CLIPPED_LEVEL,) * 3, (255,) * 3)
    return cv2.countNonZero(white) / float(white.size)


def prepare(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card trimmed, resized, white-balanced on its paper: (BGR 0..1, Lab) float32.

    The paper is the 90th percentile of each channel, so a warm lamp or a blue dusk
    does not change the ink colours."""
    return _prepare(card)[:2]


def trimmed(card: np.ndarray) -> np.ndarray:
    """The part of a straightened card (or of a mask the same shape) that is described:
    MARGIN trimmed off each side, resized to DESCRIBE_SIZE."""
    h, w = card.shape[:2]
    dy, dx = round(h * MARGIN), round(w * MARGIN)
    inner = card[dy : h - dy, dx : w - dx]
    if inner.shape[1::-1] != DESCRIBE_SIZE:
        inner = cv2.resize(inner, DESCRIBE_SIZE, interpolation=cv2.INTER_AREA)
    return inner


def _prepare(card: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """:func:`prepare`, and the fraction of the card clipped to white (see _clipped)."""
    inner = trimmed(card)
    sample = _every(inner, 2)  # every 4th pixel is plenty
    paper = _quantiles(sample.reshape(-1, 3), (0.9,))[0]  # per channel, one partition
    # OpenCV's per-channel scalar product, converting to float on the way, and its
    # minimum: numpy over 3 interleaved channels costs several times more, and this
    # runs for every card of every frame.
    scale = [float(1.0 / max(p, 1.0)) for p in paper]
    img = cv2.min(cv2.multiply(inner, (*scale, 0.0), dtype=cv2.CV_32F), (1.0, 1.0, 1.0, 1.0))
    return img, cv2.cvtColor(img, cv2.COLOR_BGR2Lab), _clipped(sample)


def _local_paper(channel: np.ndarray) -> np.ndarray:
    """The paper's value around each pixel: a morphological closing (brightest nearby
    value, then darkest of those), which erases print narrower than the kernel but keeps
    a shadow's edge where it is, so a sharp shadow across the card is not read as ink."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, PAPER_KERNEL)
    return np.maximum(cv2.morphologyEx(channel, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE), 1e-3)


def _blank_border(image: np.ndarray) -> np.ndarray:
    """``image`` with a thin frame zeroed: whatever of the table a loose outline let in."""
    b = BORDER
    out = np.zeros_like(image)
    out[b:-b, b:-b] = image[b:-b, b:-b]
    return out


def tint_map(img: np.ndarray) -> tuple[np.ndarray, float]:
    """How far the palest channel falls below the local paper (0..1): ink of any colour
    counts, so do faint tints such as fine stripes blurred into a shade, while a shadow
    or glare spread across the card is divided out by the local paper level.

    Also how evenly lit the paper is: its darkest local level over its brightest (2nd and
    98th percentiles), 1.0 = even.  A lamp's reflection drags this far below a plainly lit
    card's, and then dividing it out leaves a false tint inside empty shapes (they look
    striped) and washes out stripes: see vision.cards for what the reader does about it."""
    b, g, r = cv2.split(img)  # contiguous planes: interleaved numpy views are slow
    palest = cv2.min(cv2.min(b, g), r)
    paper = _local_paper(palest)
    sample = _every(paper, 4)
    darkest, brightest = _quantiles(sample.ravel(), (0.02, 0.98))
    evenness = float(darkest) / max(float(brightest), 1e-3)
    return _blank_border(np.clip(1.0 - palest / paper, 0.0, 1.0)), evenness


def _strongest(ink: np.ndarray) -> float:
    """The card's full-ink level: bold and faint printing are judged on their own scale."""
    return max(_quantile(ink, 0.995), 0.2)


def _quantile(values: np.ndarray, q: float) -> float:
    """The q-quantile (nearest rank) of an array; np.percentile costs ten times more."""
    return float(_quantiles(values.ravel(), (q,))[0])


def _quantiles(values: np.ndarray, qs: tuple[float, ...]) -> np.ndarray:
    """The qs-quantiles (nearest rank) of ``values`` along its first axis, from one
    partition: a row per quantile (a scalar each for a flat array)."""
    ks = [min(len(values) - 1, int(q * len(values))) for q in qs]
    return np.partition(values, ks, axis=0)[ks]


def silhouette(tint: np.ndarray) -> np.ndarray:
    """The printed marks with their insides filled (float 0/1): a shape's outline
    whatever its fill, so count and shape do not hinge on faint stripes.

    Marks are where the tint stands out from its surroundings (a thin faint outline
    does, a soft shadow does not).  Each connected mark, grown a little to bridge gaps,
    is replaced by its convex hull: unlike a flood fill, a gap in a faint outline does
    not empty the shape.  Concave shapes lose their dents, identically every time."""
    contrast = tint - cv2.blur(tint, (CONTRAST_WINDOW, CONTRAST_WINDOW))
    marks = (contrast > MARK_LEVEL * _strongest(contrast)).astype(np.uint8)
    grown = cv2.dilate(marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BRIDGE + 1, 2 * BRIDGE + 1)))
    contours, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(tint.shape, np.uint8)
    for contour in contours:  # one at a time: overlapping hulls in one fillPoly cancel out
        cv2.fillConvexPoly(filled, cv2.convexHull(contour), 1)
    filled = cv2.erode(filled, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BRIDGE + 1, 2 * BRIDGE + 1)))
    return filled.astype(np.float32)


def _fill(tint: np.ndarray, filled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How tinted the silhouettes' insides are, relative to the card's strongest tint
    (solid ~1, striped ~0.25, empty ~0.05), and the coarse tint map on the same scale."""
    relative = np.clip(tint / _strongest(tint), 0.0, 1.0)
    inside = cv2.erode(filled, np.ones((2 * INTERIOR + 1, 2 * INTERIOR + 1), np.uint8))
    area = float(inside.sum())
    fill = float((relative * inside).sum()) / area if area > 0 else 0.0
    return np.array([fill], np.float32), _grid(relative, LAYOUT_GRID)


def _contrast(tint: np.ndarray) -> np.ndarray:
    """Log of the strongest print, measured after a blur so that a slightly soft photo
    (thin lines smeared) keeps its contrast while a glare (ink itself faded) loses it."""
    soft = cv2.GaussianBlur(tint, (0, 0), CONTRAST_BLUR)
    return np.array([np.log(_strongest(soft))], np.float32)


def _hues(lab: np.ndarray) -> np.ndarray:
    """Normalised histogram of the hues of inked pixels (weighted by chroma): names
    the ink colour however much ink there is.  Every 4th pixel is plenty for a histogram."""
    _, a, b = cv2.split(_every(lab, 2))
    chroma, angle = cv2.cartToPolar(a, b)  # angle 0..2pi from the +a axis; bin 0 starts at -a
    bins = ((angle * (HUE_BINS / (2 * np.pi))).astype(np.int32) + HUE_BINS // 2) % HUE_BINS
    weight = np.maximum(chroma - MIN_CHROMA, 0.0)
    hist = np.bincount(bins.ravel(), weight.ravel(), HUE_BINS)
    low, high = HUE_FLOOR
    colourful = min(1.0, max(0.0, (float(hist.sum()) / weight.size - low) / (high - low)))
    return _unit(_HUE_SPREAD @ hist.astype(np.float32)) * colourful


def _chroma(lab: np.ndarray) -> np.ndarray:
    """Where on the card which colours are: (a, b) averaged on a coarse grid, as
    :func:`_grid` scales it (the whole Lab image is averaged: slicing first costs more)."""
    ab = cv2.resize(lab, CHROMA_GRID, interpolation=cv2.INTER_AREA)[..., 1:].ravel() / 50.0
    return ab / np.sqrt(ab.size)


def _texture(lab: np.ndarray) -> np.ndarray:
    """Gradient-orientation histograms per cell (HOG-like) of the lightness: line art,
    text and pictures.  (OpenCV 5 dropped HOGDescriptor from its main module.)"""
    lightness = cv2.extractChannel(lab, 0)  # contiguous: OpenCV would copy a strided view twice
    gx = cv2.Sobel(lightness, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lightness, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    bins = (angle * (ORIENT_BINS / np.pi)).astype(np.int32) & (ORIENT_BINS - 1)  # unsigned orientation
    slot = (_TEXTURE_SLOT_OF + bins).ravel()
    cells = np.bincount(slot, magnitude.ravel(), _TEXTURE_CELL_COUNT * ORIENT_BINS)
    return _unit(np.sqrt(cells))


def _texture_cells() -> np.ndarray:
    """For each pixel of the description, the index of its texture cell (row-major)."""
    w, h = DESCRIBE_SIZE
    rows = np.arange(h)[:, None] // TEXTURE_CELL
    cols = np.arange(w)[None, :] // TEXTURE_CELL
    return (rows * (w // TEXTURE_CELL) + cols).astype(np.int64)


_TEXTURE_SLOT_OF = _texture_cells() * ORIENT_BINS
"""Each pixel's first histogram slot: its cell's (the pixel's bin is added)."""
_TEXTURE_CELL_COUNT = (DESCRIBE_SIZE[0] // TEXTURE_CELL) * (DESCRIBE_SIZE[1] // TEXTURE_CELL)


def describe_parts(card: np.ndarray) -> dict[str, np.ndarray]:
    """The parts describing a straightened card (BGR, portrait), unweighted."""
    return _parts_and_lighting(card)[0]


def _parts_and_lighting(card: np.ndarray, soften: float = 0.0) -> tuple[dict[str, np.ndarray], Lighting]:
    """The parts describing a straightened card (BGR, portrait), unweighted, and how it
    is lit (see :class:`Lighting`); ``soften`` > 0 describes it as a photo blurred by
    that sigma (description pixels) would show it (see SOFT_VIEWS)."""
    img, lab, clipped = _prepare(card)
    if soften > 0:
        img = cv2.GaussianBlur(img, (0, 0), soften)
        lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    tint, evenness = tint_map(img)
    filled = silhouette(tint)
    fill, layout = _fill(tint, filled)
    return {
        "silhouette": cv2.GaussianBlur(
            _grid(filled, SILHOUETTE_GRID).reshape(SILHOUETTE_GRID[::-1]), (3, 3), 0
        ).ravel(),
        "fill": fill,
        "contrast": _contrast(tint),
        "layout": layout,
        "hues": _hues(lab),
        "chroma": _chroma(lab),
        "texture": _texture(lab),
    }, Lighting(evenness, clipped)


def _part_sizes() -> dict[str, int]:
    """Length of each part's vector (from describing a blank card once)."""
    blank = np.full((CARD_PROBE[1], CARD_PROBE[0], 3), 200, np.uint8)
    return {name: len(v) for name, v in describe_parts(blank).items()}


CARD_PROBE = (200, 300)


def describe(card: np.ndarray) -> np.ndarray:
    """One float32 vector per card, each part divided by its tolerance: the Euclidean
    distance between two vectors sums up every way in which two cards look different."""
    return describe_lit(card)[0]


def describe_lit(card: np.ndarray, soften: float = 0.0) -> tuple[np.ndarray, Lighting]:
    """:func:`describe`, and how the card is lit (see :class:`Lighting`): the reader is
    stricter with cards under a lamp's reflection."""
    parts, lighting = _parts_and_lighting(card, soften)
    return np.concatenate([parts[name] / TOLERANCES[name] for name in PARTS]).astype(np.float32), lighting


def describe_views(card: np.ndarray) -> np.ndarray:
    """The card as taught (one row per view, see SOFT_VIEWS): sharp, and as soft photos
    would show it, so a blurred photo meets a blurred view of its card."""
    return np.stack([describe_lit(card, soften)[0] for soften in (0.0, *SOFT_VIEWS)])


def part_distances(query: np.ndarray, candidates: np.ndarray, parts: tuple[str, ...] = PARTS) -> np.ndarray:
    """Distance in each part (columns, in ``parts`` order) from ``query`` to each candidate row.

    A card of another kind differs strongly in at least one part (colour, count, fill,
    shape), so the largest part distance is what rejects cards missing from the deck."""
    sums = np.empty((len(candidates), len(parts)), np.float32)
    for i, part in enumerate(parts):  # squared and summed as np.linalg.norm does, without its checks
        diff = candidates[:, PART_SLICES[part]] - query[PART_SLICES[part]]
        sums[:, i] = np.add.reduce(diff * diff, axis=1)
    return np.sqrt(sums)


def fill_of(vectors: np.ndarray) -> np.ndarray:
    """The fill part (see :func:`_fill`) of descriptor rows, in tolerance units."""
    return vectors[..., PART_SLICES["fill"].start]


def rotated_180(card: np.ndarray) -> np.ndarray:
    """The same card upside down: a portrait card lies on the table one of two ways up."""
    return cv2.rotate(card, cv2.ROTATE_180)


def _grid_flip(shape: tuple[int, ...]) -> np.ndarray:
    """Index permutation turning a flattened (rows, cols, ...) grid upside down."""
    return np.arange(int(np.prod(shape))).reshape(shape)[::-1, ::-1].ravel()


def _rotation_permutation() -> np.ndarray:
    """Indices that turn a card's descriptor into the descriptor of the card upside down.

    Every part is either a grid (cells swap end for end; unsigned gradient orientations
    and chroma pairs are unchanged by a half turn) or position-free (hues, fill), so the
    upside-down card need not be described again."""
    w, h = DESCRIBE_SIZE
    flips = {
        "silhouette": _grid_flip(SILHOUETTE_GRID[::-1]),
        "fill": np.arange(PART_SLICES["fill"].stop - PART_SLICES["fill"].start),
        "contrast": np.arange(1),
        "layout": _grid_flip(LAYOUT_GRID[::-1]),
        "hues": np.arange(HUE_BINS),
        "chroma": _grid_flip((CHROMA_GRID[1], CHROMA_GRID[0], 2)),
        "texture": _grid_flip((h // TEXTURE_CELL, w // TEXTURE_CELL, ORIENT_BINS)),
    }
    return np.concatenate([flips[name] + PART_SLICES[name].start for name in PARTS])


def _part_slices() -> dict[str, slice]:
    """Where each part lies in a descriptor vector."""
    sizes = _part_sizes()
    slices, start = {}, 0
    for name in PARTS:
        slices[name] = slice(start, start + sizes[name])
        start += sizes[name]
    return slices


PART_SLICES = _part_slices()

ROTATE_180 = _rotation_permutation()
"""``describe(card)[ROTATE_180]`` is (nearly) ``describe(rotated_180(card))``."""


def _descriptor_version() -> str:
    """A fingerprint of the descriptor itself: a fixed random card described and hashed,
    so any change to the code or constants changes it and stale caches are ignored."""
    import hashlib

    probe = np.random.default_rng(4).integers(0, 256, (CARD_PROBE[1], CARD_PROBE[0], 3), dtype=np.uint8)
    return hashlib.sha1(np.round(describe_views(probe), 3).tobytes()).hexdigest()[:16]


DESCRIPTOR_VERSION = _descriptor_version()
