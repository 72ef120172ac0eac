"""A symbol die made for measuring taught-die reading, and the measurement itself.

No photos of Harry Potter Clue's black die exist in the project, so one is rendered:
a dark, slightly glossy cube seen from above (bevelled edges catching the light, a
sliver of a side face from the camera's slant), six distinct ivory symbols, and
what a camera adds (soft focus, a cast shadow, lamp colour and brightness, sensor
noise, JPEG).  It is pasted into real tray photos with the tray's real dice around
it.  Teaching photos show it alone on an emptied real tray (the real dice inpainted
away), as the host would at the table; reading photos are other real photos.

``make bench`` (or ``python -m bench.taught_dice [photos a face] [black|ivory]
[seeds...]``) measures on the full dice-tray set: teach on ``train`` photos, read on
``test`` photos; writes ``bench/results/taught_dice.json``.  The tests use the same
die on the few photos in ``tests/data``.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bench import save
from bench.dice import Label, load_labels

FACES = ("star", "dark-mark", "tower", "key", "bolt", "book")
DIES = {"black": ((34, 30, 28), (200, 214, 222)), "ivory": ((196, 214, 226), (40, 36, 140))}
"""(body, ink) BGR of the rendered dice: Clue's black die with ivory symbols, and a
light die with dark red symbols (the reader must not depend on which is lighter)."""
ART = 128
"""Side of the drawn face before it is shrunk into a photo."""


def _poly(img: np.ndarray, pts: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(img, [np.array([(round(x), round(y)) for x, y in pts], np.int32)], colour, cv2.LINE_AA)


def draw_symbol(face: str, ink: tuple[int, int, int], body: tuple[int, int, int]) -> np.ndarray:
    """One face's symbol in ``ink`` on ``body``, on an ART x ART canvas (centre 64)."""
    img = np.full((ART, ART, 3), body, np.uint8)
    c = ART / 2
    if face == "star":
        _poly(
            img,
            [
                (
                    c + (40 if i % 2 == 0 else 16) * math.sin(i * math.pi / 5),
                    c - (40 if i % 2 == 0 else 16) * math.cos(i * math.pi / 5),
                )
                for i in range(10)
            ],
            ink,
        )
    elif face == "dark-mark":  # a skull with a snake out of its mouth
        cv2.circle(img, (64, 50), 24, ink, -1, cv2.LINE_AA)
        cv2.rectangle(img, (50, 62), (78, 80), ink, -1)
        for ex in (54, 74):
            cv2.circle(img, (ex, 50), 7, body, -1, cv2.LINE_AA)
        cv2.ellipse(img, (58, 96), (14, 12), 0, 180, 360, ink, 5, cv2.LINE_AA)
        cv2.ellipse(img, (72, 96), (14, 12), 0, 0, 180, ink, 5, cv2.LINE_AA)
    elif face == "tower":
        cv2.rectangle(img, (46, 44), (82, 104), ink, -1)
        for bx in (42, 58, 74):
            cv2.rectangle(img, (bx, 30), (bx + 12, 46), ink, -1)
        cv2.rectangle(img, (58, 84), (70, 104), body, -1)
    elif face == "key":
        cv2.circle(img, (40, 64), 18, ink, 8, cv2.LINE_AA)
        cv2.rectangle(img, (56, 59), (104, 69), ink, -1)
        cv2.rectangle(img, (88, 69), (96, 84), ink, -1)
        cv2.rectangle(img, (76, 69), (82, 80), ink, -1)
    elif face == "bolt":
        _poly(img, [(58, 22), (86, 22), (70, 56), (90, 56), (50, 108), (60, 68), (40, 68)], ink)
    elif face == "book":
        _poly(img, [(26, 40), (62, 48), (62, 98), (26, 90)], ink)
        _poly(img, [(66, 48), (102, 40), (102, 90), (66, 98)], ink)
        for ly in (60, 72):
            cv2.line(img, (34, ly - 2), (54, ly + 2), body, 3, cv2.LINE_AA)
    else:
        raise ValueError(face)
    return img


@dataclass(frozen=True)
class Look:
    """How one photo of the die came out: where, how big, turned, lit and focused."""

    x: float
    y: float
    size: float  # die side in frame pixels
    angle: float  # degrees
    gain: float  # lamp brightness on the die
    cast: tuple[float, float, float]  # lamp colour (BGR gains)
    blur: float  # Gaussian sigma in frame pixels
    light: float  # direction the light comes from, degrees
    slant: float  # how much side face shows, share of the side (camera not straight down)
    die: str = "black"  # which of DIES


def render_die(face: str, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """The die at ART scale (BGR) and its opacity mask, before placement."""
    body, ink = DIES[look.die]
    art = draw_symbol(face, ink, body).astype(np.float32)
    # Rounded cube top: bevels lit from ``light``, darker away from it; gloss in a corner.
    yy, xx = np.mgrid[0:ART, 0:ART].astype(np.float32) - (ART - 1) / 2
    lx, ly = math.cos(math.radians(look.light)), math.sin(math.radians(look.light))
    edge = np.clip((np.maximum(abs(xx), abs(yy)) - ART * 0.38) / (ART * 0.12), 0, 1)
    facing = (xx * lx + yy * ly) / (ART / 2)
    art *= (1 + 0.9 * edge * facing)[..., None]
    art += (18 * np.exp(-((xx - lx * 30) ** 2 + (yy - ly * 30) ** 2) / 600))[..., None]
    mask = np.zeros((ART, ART), np.float32)
    r = ART // 9
    cv2.rectangle(mask, (r, 0), (ART - 1 - r, ART - 1), 1.0, -1)
    cv2.rectangle(mask, (0, r), (ART - 1, ART - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (ART - 1 - r, r), (r, ART - 1 - r), (ART - 1 - r, ART - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    art = art * mask[..., None]
    if look.slant > 0:  # a sliver of the side below the top face, in shade
        shift = round(look.slant * ART)
        side = np.zeros((ART + shift, ART, 3), np.float32)
        side_mask = np.zeros((ART + shift, ART), np.float32)
        side[shift:] = np.array(body, np.float32) * 0.55 * mask[..., None]
        side_mask[shift:] = mask
        side[:ART] = np.where(mask[..., None] > 0, art, side[:ART])
        side_mask[:ART] = np.maximum(side_mask[:ART], mask)
        art, mask = side, side_mask
    return np.clip(art, 0, 255), mask


def paste_die(frame: np.ndarray, face: str, look: Look) -> np.ndarray:
    """The frame with the die put in: shadow, lamp, focus and sensor noise."""
    art, mask = render_die(face, look)
    h, w = frame.shape[:2]
    aw = mask.shape[1]
    scale = look.size / ART
    m = cv2.getRotationMatrix2D((aw / 2, ART / 2), look.angle, scale)
    m[:, 2] += (look.x - aw / 2, look.y - ART / 2)
    die = cv2.warpAffine(art, m, (w, h), flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_AREA)
    out = frame.astype(np.float32)
    shadow_m = m.copy()
    shadow_m[:, 2] += (
        -math.cos(math.radians(look.light)) * look.size * 0.15,
        -math.sin(math.radians(look.light)) * look.size * 0.15,
    )
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shadow_m, (w, h)), (0, 0), max(1.0, look.size * 0.08))
    out *= (1 - 0.45 * shadow)[..., None]
    lit = die * look.gain * np.array(look.cast, np.float32)
    out = out * (1 - alpha[..., None]) + lit * alpha[..., None]
    if look.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), look.blur)
    return np.clip(out, 0, 255).astype(np.uint8)


def camera_finish(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise and JPEG compression, as every camera frame has."""
    noisy = frame.astype(np.float32) + rng.normal(0, rng.uniform(1.0, 3.5), frame.shape)
    ok, data = cv2.imencode(
        ".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 92))]
    )
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def random_look(
    rng: np.random.Generator,
    labels: list[Label],
    frame_side: int,
    others: list[tuple[float, float, float]] = (),
    die: str = "black",
) -> Look:
    """A look at a free spot: the real dice (and ``others``) stay clear of the die."""
    typical = float(np.median([lab.size for lab in labels])) if labels else 38.0
    size = float(typical * rng.uniform(0.85, 1.2))
    busy = [(lab.x, lab.y, lab.size) for lab in labels] + list(others)
    for _ in range(400):
        x, y = rng.uniform(70, frame_side - 70, 2)
        if all(math.hypot(x - bx, y - by) > 0.85 * (size + bs) for bx, by, bs in busy):
            break
    cast = tuple(float(v) for v in rng.uniform(0.85, 1.15, 3))
    return Look(
        float(x),
        float(y),
        size,
        float(rng.uniform(0, 360)),
        float(rng.uniform(0.7, 1.4)),
        cast,
        float(rng.uniform(0.3, 1.1)),
        float(rng.uniform(0, 360)),
        float(rng.uniform(0, 0.12)),
        die,
    )


def empty_tray(frame: np.ndarray, labels: list[Label]) -> np.ndarray:
    """The photo's tray with its real dice (and their shadows) painted out."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    for lab in labels:
        r = int(lab.size)
        cv2.circle(mask, (int(lab.x), int(lab.y)), r, 255, -1)
    return cv2.inpaint(frame, mask, 7, cv2.INPAINT_TELEA)


# The measurement


@dataclass
class Tally:
    """How the taught die and the real pipped dice around it were read."""

    shown: int = 0
    right: int = 0
    unsure: int = 0
    wrong_face: int = 0
    as_pips: int = 0
    missed: int = 0
    pips: int = 0
    pips_as_taught: int = 0
    pips_changed: int = 0  # another value, or found or lost, because of the taught die
    pips_made_unsure: int = 0  # read before, unsure with the taught die (one tap, not an error)
    ms: list[float] = field(default_factory=list)  # reading time of each roll, with and without the taught die
    ms_plain: list[float] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"taught die shown {self.shown}: right {self.right} ({100 * self.right / max(1, self.shown):.1f}%), "
            f"unsure {self.unsure}, wrong face {self.wrong_face}, read as pips {self.as_pips}, missed {self.missed}; "
            f"real pipped dice {self.pips}: read as a taught face {self.pips_as_taught}, "
            f"made unsure by it {self.pips_made_unsure}, otherwise changed by it {self.pips_changed}; median ms a roll "
            f"{statistics.median(self.ms or [0]):.1f} with the taught die, {statistics.median(self.ms_plain or [0]):.1f} without"
        )


def teach_photos(
    photos: dict[str, tuple[np.ndarray, list[Label]]], per_face: int, rng: np.random.Generator, die: str = "black"
) -> dict[str, list[np.ndarray]]:
    """``per_face`` photos of each face alone on emptied trays, each a new place and light.
    A tray where the box sees more than the one die (a leftover die the labels missed) is
    passed over, as the host would clear it."""
    from vision.dice import face_patch
    from vision.images import ImageError

    names = sorted(photos)
    trays: dict[str, np.ndarray] = {}
    out: dict[str, list[np.ndarray]] = {}
    for face in FACES:
        out[face] = []
        while len(out[face]) < per_face:
            name = names[int(rng.integers(len(names)))]
            if name not in trays:
                trays[name] = empty_tray(*photos[name])
            tray = trays[name]
            shot = camera_finish(paste_die(tray, face, random_look(rng, [], tray.shape[0], die=die)), rng)
            try:
                face_patch(shot)
            except ImageError:
                continue
            out[face].append(shot)
    return out


def teach(
    photos: dict[str, tuple[np.ndarray, list[Label]]],
    root: Path,
    per_face: int,
    rng: np.random.Generator,
    die: str = "black",
):
    """Teach the die ``clue`` under ``root`` from ``per_face`` photos a face; the model."""
    from vision.dice import TaughtDice, teach_die

    for face, frames in teach_photos(photos, per_face, rng, die).items():
        teach_die(root / "clue", face, frames)
    return TaughtDice.load(root, ["clue"])


def measure(
    taught,
    read: dict[str, tuple[np.ndarray, list[Label]]],
    per_photo: int,
    rng: np.random.Generator,
    die: str = "black",
) -> Tally:
    """Read the taught die pasted ``per_photo`` times into every ``read`` photo (one copy
    a roll, among the photo's real dice), and the real dice with and without it taught."""
    from vision.dice import read_dice

    tally = Tally()
    for name in sorted(read):
        frame, labels = read[name]
        for _ in range(per_photo):
            face = FACES[int(rng.integers(len(FACES)))]
            look = random_look(rng, labels, frame.shape[0], die=die)
            roll = camera_finish(paste_die(frame, face, look), rng)
            start = time.perf_counter()
            reading = read_dice(roll, taught)
            middle = time.perf_counter()
            plain = read_dice(roll)
            tally.ms.append((middle - start) * 1000)
            tally.ms_plain.append((time.perf_counter() - middle) * 1000)
            score_roll(tally, reading, plain, face, look, labels)
    return tally


def score_roll(tally: Tally, reading, plain, face: str, look: Look, labels: list[Label]) -> None:
    """Tally one roll: the taught die at ``look``, the real dice at ``labels``; ``plain``
    is the same roll read without the taught die (the pipped dice must read the same)."""
    tally.shown += 1
    near = [d for d in reading.dice if math.hypot(d.x - look.x, d.y - look.y) < look.size * 0.5]
    if not near:
        tally.missed += 1
    elif near[0].value == face:
        tally.right += 1
    elif near[0].value is None:
        tally.unsure += 1
    elif isinstance(near[0].value, str):
        tally.wrong_face += 1
    else:
        tally.as_pips += 1
    for label in labels:
        tally.pips += 1
        now = [d for d in reading.dice if math.hypot(d.x - label.x, d.y - label.y) < label.size * 0.5]
        before = [d for d in plain.dice if math.hypot(d.x - label.x, d.y - label.y) < label.size * 0.5]
        if now and isinstance(now[0].value, str):
            tally.pips_as_taught += 1
        elif now and before and now[0].value is None and before[0].value is not None:
            tally.pips_made_unsure += 1
        elif (now[0].value if now else "missed") != (before[0].value if before else "missed"):
            tally.pips_changed += 1


def load_photos(tray: Path, split: str) -> dict[str, tuple[np.ndarray, list[Label]]]:
    """The full set's photos of one split (for the measurement)."""
    return {name: (cv2.imread(str(tray / "images" / name)), labs) for name, labs in load_labels(tray, split).items()}


RESULTS = Path(__file__).resolve().parent / "results" / "taught_dice.json"


def main() -> dict:
    """Measure on the full dice-tray set: teach on train photos, read on test photos.
    Arguments: teaching photos a face (default 4), the die (black or ivory), seeds;
    without arguments, the black die with seeds 1 and 2 and the ivory die with seed 1."""
    cv2.setNumThreads(1)
    data = Path(os.environ.get("FAMILIAR_DATA", Path(__file__).resolve().parents[1].parent / "shared" / "data"))
    tray = data / "dice-tray"
    if not (tray / "labels.csv").exists():
        print(f"taught dice: no data set at {tray}, skipped (set FAMILIAR_DATA)")
        return {}
    train, test = load_photos(tray, "train"), load_photos(tray, "test")
    args = sys.argv[1:] if __name__ == "__main__" else []
    per_face = int(args[0]) if args else 4
    runs = [(args[1] if len(args) > 1 else "black", int(seed)) for seed in args[2:]] or [
        ("black", 1),
        ("black", 2),
        ("ivory", 1),
    ]
    result = {"teaching_photos_a_face": per_face, "runs": []}
    for die, seed in runs:
        rng = np.random.default_rng(seed)
        with tempfile.TemporaryDirectory() as tmp:
            taught = teach(train, Path(tmp), per_face, rng, die)
        tally = measure(taught, test, 3, rng, die)
        print(f"  {die} die, seed {seed}: {tally.line()}", flush=True)
        figures = {k: v for k, v in vars(tally).items() if not k.startswith("ms")}
        figures["median_ms"] = round(statistics.median(tally.ms or [0]), 1)
        figures["median_ms_without"] = round(statistics.median(tally.ms_plain or [0]), 1)
        result["runs"].append({"die": die, "seed": seed, **figures})
    return save(RESULTS, result)


if __name__ == "__main__":
    main()
