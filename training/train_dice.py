"""Train the two small dice networks and export them as ONNX for cv2.dnn.

Run from the repository root in a throwaway venv with CPU torch (``pip install
torch==2.13.0 numpy opencv-python-headless onnx``), one thread, seed 7 unless told::

    python -m training.train_dice --out D [options]

then (with ``--out`` elsewhere than ``vision/dice/models``, its default) copy D's
``*.onnx`` there and run ``python -m training.pick_dice_thresholds`` in the project's
venv.  The runs that made the shipped nets, in order, and what was tried and not
kept are in ``docs/experiments/2026-11-dice-reader.md``.  torch is NOT a runtime
dependency: the box runs the exported ONNX files with OpenCV alone.  Only the ``train`` split is used; 30
of its 200 photos are held out (``training.HOLDOUT``) to pick the confidence
thresholds (written beside the models in ``dice_models.json``); the test split is
never read here.

Two networks, because finding dice and reading faces need different resolutions:
* ``dice_detector.onnx``: a tiny fully convolutional centre-heatmap net (CenterNet
  style) on the frame shrunk to ~320 px; it outputs, at stride 4, how likely each cell
  is a die centre and the log of the die's box side.  Finding dice as heatmap peaks
  separates touching dice and needs no background model.
* ``dice_faces.onnx``: a small CNN on a 32x32 patch cut around each found die from the
  full-resolution frame (``vision.dice.patch``), 7 classes: not-a-die, 1..6.

Training views are made from the real photos with rotations, scale (dice 5-45 px in
detector input, i.e. 10-90 px in a 640 frame), perspective up to ~45 degree tilt,
colour (hue, channel order, inversion that turns light dice dark and the tray dark),
blur, noise, JPEG and shadows, so that the nets learn dice and not this tray.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from bench.dice import data_dir, load_labels
from training import HOLDOUT
from vision.dice.nets import MODELS
from vision.dice.patch import PATCH, cut_patch


@dataclass
class FaceMix:
    """Where face-net training patches come from (shares of all patches)."""

    hard: dict | None = None  # detector false alarms per photo (not-a-die)
    mild: float = 0.0  # share of patches left in the camera's colours
    noise: float = 0.0  # share of random speckle (not-a-die)
    pool: list = field(default_factory=list)  # drawn faces (synth_dice)
    drawn: float = 0.0  # share of drawn faces
    weak: list = field(default_factory=list)  # dice the previous nets read weakly
    weak_share: float = 0.0  # share of those
    shift: float = 0.12  # a die's patch is cut up to this share of its side off-centre
    sizes: tuple[float, float] = (0.85, 1.2)  # and at its side times a factor in this range
    hard_share: float = 0.1  # share of patches cut at the detector's false alarms
    clutter: list = field(default_factory=list)  # drawn things that are no die (synth_dice.draw_clutter)
    clutter_share: float = 0.0  # share of those
    photos: list = field(default_factory=list)  # the photos as taken (not moved onto drawn tables)
    tray: float = 0.0  # share of real patches cut from ``photos`` rather than from any training view
    small: float = 0.15  # share of patches shrunk to a 11-22 px die and enlarged again (``damage_patch``)
    tilt: float = 0.2  # share of patches foreshortened as a tilted camera sees them
    squash: float = 0.72  # the most foreshortening: the die's side times this, across (cos 44 degrees)


KD_T = 2.0  # temperature of the soft targets a fine-tune keeps (``train_faces``'s keep)
DET_IN = 160  # training window of the detector (it is fully convolutional)
STRIDE = 4


# ----------------------------------------------------------------------------- data


def load_split(data: Path) -> dict[str, list[tuple[int, float, float, float]]]:
    """image name -> [(face, cx, cy, size)] for the train split only, with the checked
    label fixes of ``bench/dice_label_fixes.csv`` (runs before step 3 used the labels
    as published: four miscounted faces taught wrong classes and four unlabelled
    dice were mined as "not a die")."""
    return {
        name: [(lab.face, lab.x, lab.y, lab.size) for lab in labs] for name, labs in load_labels(data, "train").items()
    }


def fit_names(labels: dict) -> list[str]:
    """The training photos the nets may fit on: all but the held-out ones (HOLDOUT)."""
    held = set(json.loads(HOLDOUT.read_text()))
    return sorted(n for n in labels if n not in held)


def colour_jitter(img: np.ndarray, rng: random.Random, invert: float = 0.2) -> np.ndarray:
    """Change dice and table colours and light the way other tables and cameras do."""
    img = img.astype(np.float32)
    if rng.random() < 0.5:
        img = img[:, :, rng.sample(range(3), 3)]
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.3, 1.6), 0, 255)
        img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.15:
        g = img.mean(axis=2, keepdims=True)
        img = np.repeat(g, 3, axis=2)
    if rng.random() < invert:
        img = 255.0 - img
    img = img * np.array([rng.uniform(0.75, 1.25) for _ in range(3)], np.float32)  # white balance
    img = (img - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-50, 40)
    img = np.clip(img, 0, 255)
    if rng.random() < 0.5:
        img = 255.0 * (img / 255.0) ** rng.uniform(0.6, 1.6)
    return img


def shadow(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """A soft dark blob or edge, like a hand or the box rim shading the tray."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    pts = np.array([[rng.uniform(-w, 2 * w), rng.uniform(-h, 2 * h)] for _ in range(rng.randint(3, 6))], np.int32)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0)
    k = int(max(h, w) * rng.uniform(0.05, 0.3)) | 1
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    return img * (1 - mask[..., None] * rng.uniform(0.3, 0.65))


def degrade(img: np.ndarray, rng: random.Random, p: float = 0.4) -> np.ndarray:
    """Blur, sensor noise and JPEG (each with probability p), as a cheap or badly
    focused camera gives."""
    if rng.random() < p:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3))
    if rng.random() < p:
        img = img + np.random.normal(0, rng.uniform(2, 10), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < p:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(25, 90)])
        img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return img


def random_homography(cx: float, cy: float, scale: float, out: int, rng: random.Random) -> np.ndarray:
    """Frame -> window: rotate and scale about (cx, cy), then tilt up to ~45 degrees."""
    a = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    m = np.array([[c, -s, out / 2 - c * cx + s * cy], [s, c, out / 2 - s * cx - c * cy], [0, 0, 1]], np.float64)
    if rng.random() < 0.5:
        tilt = rng.uniform(0, 0.0025) * (DET_IN / out)
        b = rng.uniform(0, 2 * math.pi)
        p = np.array([[1, 0, 0], [0, 1, 0], [tilt * math.cos(b), tilt * math.sin(b), 1]], np.float64)
        t = np.array([[1, 0, -out / 2], [0, 1, -out / 2], [0, 0, 1]], np.float64)
        m = np.linalg.inv(t) @ p @ t @ m
    return m


def warp_point(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    v = m @ np.array([x, y, 1.0])
    return v[0] / v[2], v[1] / v[2]


def detector_sample(img: np.ndarray, dice: list, rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A window for the detector with its centre heatmap and log-size target."""
    med = float(np.median([d[3] for d in dice]))
    scale = rng.uniform(5.0, 45.0) / med if rng.random() < 0.8 else rng.uniform(12.0, 30.0) / med
    if rng.random() < 0.7:
        _, cx, cy, _ = rng.choice(dice)
        cx += rng.uniform(-DET_IN / 2, DET_IN / 2) / scale
        cy += rng.uniform(-DET_IN / 2, DET_IN / 2) / scale
    else:
        cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
    m = random_homography(cx, cy, scale, DET_IN, rng)
    # Warp with area-like quality: pre-shrink big reductions so dice do not alias.
    src, pre = img, 1.0
    while scale / pre < 0.5:
        src = cv2.pyrDown(src)
        pre /= 2
    # src pixels -> frame pixels -> window
    m_src = m @ np.diag([1 / pre, 1 / pre, 1.0])
    win = cv2.warpPerspective(src, m_src, (DET_IN, DET_IN), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    win = colour_jitter(win, rng)
    if rng.random() < 0.3:
        win = shadow(win, rng)
    win = degrade(win, rng)
    g = DET_IN // STRIDE
    heat = np.zeros((g, g), np.float32)
    size = np.zeros((g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for _, dx, dy, ds in dice:
        px, py = warp_point(m, dx, dy)
        if not (0 <= px < DET_IN and 0 <= py < DET_IN):
            continue
        corners = [warp_point(m, dx + ex * ds / 2, dy + ey * ds / 2) for ex, ey in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        side = math.sqrt(abs(cv2.contourArea(np.array(corners, np.float32))))
        gx, gy = px / STRIDE - 0.5, py / STRIDE - 0.5
        sigma = max(0.6, side / STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2)))
        ix, iy = int(round(gx)), int(round(gy))
        for oy in (-1, 0, 1):
            for ox in (-1, 0, 1):
                if 0 <= ix + ox < g and 0 <= iy + oy < g:
                    size[iy + oy, ix + ox] = math.log(max(side, 1.0))
                    mask[iy + oy, ix + ox] = 1.0
    return win, np.stack([heat, size, mask])


def on_drawn_tables(images: dict, names: list[str], per_photo: int, rng: random.Random) -> list[str]:
    """Each photo's dice moved onto ``per_photo`` drawn tables (``bench.dice_scenes``:
    a felt with specks, crumbs, coins and buttons, wood, woven cloth, a printed board),
    a third of them seen from 20-50 degrees, added to ``images`` under new names.

    The tray photos teach the nets one table: a light speck on a dark felt or a
    button's holes then read as a 1 or a 4, sure.  On these tables the detector learns
    that such things are no die, and its false alarms there (``mine_negatives``) teach
    the face net "not a die".  Only training photos are moved; the benchmark draws its
    tables from the test photos with other seeds, and the colour jitter of every
    training view changes the drawn tables' colours further."""
    from bench.dice import Label
    from bench.dice_scenes import board, cloth, felt, on_table, wood
    from bench.dice_variations import tilt

    tables = (felt, wood, cloth, board)
    added = []
    for n in names:
        img, dice = images[n]
        labels = [Label(face, x, y, size) for face, x, y, size in dice]
        for k in range(per_photo):
            frame, moved = on_table(img, labels, tables[(k + rng.randrange(4)) % 4], rng.randrange(1 << 30))
            if rng.random() < 1 / 3:
                frame, moved = tilt(frame, moved, rng.uniform(20, 50))
            name = f"{n}#table{k}"
            images[name] = (frame, [(d.face, d.x, d.y, d.size) for d in moved])
            added.append(name)
    print(f"moved {len(names)} photos onto {len(added)} drawn tables", flush=True)
    return added


def use_models(models: Path) -> ModuleType:
    """The box's dice reader (``vision.dice``, whose names include the detector's
    ``find_dice``, ``classify_faces`` and ``Thresholds``), made to run the exported
    nets in ``models``."""
    import vision.dice.nets as shipped
    import vision.dice.read as reader

    shipped.MODELS = models
    shipped.nets.cache_clear()
    return reader


def mine_negatives(images: dict, names: list[str], models: Path) -> dict[str, list[tuple[float, float, float]]]:
    """Where the exported detector in ``models`` fires on no die (screw heads, tray
    corners, reflections): the hard negatives the face classifier must learn to reject."""
    reader = use_models(models)
    out: dict[str, list] = {}
    for n in names:
        img, dice = images[n]
        out[n] = [
            (c.x, c.y, c.size)
            for c in reader.find_dice(img, peak=0.1)
            if all(math.hypot(c.x - dx, c.y - dy) > 0.6 * ds for _, dx, dy, ds in dice)
        ]
    print(f"mined {sum(map(len, out.values()))} detector false alarms in {len(names)} photos", flush=True)
    return out


def mine_dice(images: dict, names: list[str], models: Path) -> list[tuple[str, int, float, float, float]]:
    """Each training die as the exported models in ``models`` see it: (photo, face,
    detector centre x, y and size), for the dice those models read unsure or wrong.

    These are the dice the next face net must learn better, cut exactly where and as
    large as the detector will put them at the table (its centre and size errors
    included), rather than around the hand-drawn label box."""
    reader = use_models(models)
    weak = []
    for n in names:
        img, dice = images[n]
        found = reader.find_dice(img, peak=0.05)
        probs = reader.classify_faces(img, found, give_up=1.0)
        for face, dx, dy, ds in dice:
            near = [(math.hypot(c.x - dx, c.y - dy), c, p) for c, p in zip(found, probs, strict=False)]
            near = [m for m in near if m[0] < 0.5 * ds]
            if not near:
                continue
            _, c, p = min(near, key=lambda m: m[0])
            die = reader.decide(c, p, reader.Thresholds(0.0, 1.0, 0.9))
            if die is None or die.value != face:
                weak.append((n, face, c.x, c.y, c.size))
    print(f"mined {len(weak)} weakly read dice in {len(names)} photos", flush=True)
    return weak


def noise_patch(rng: random.Random) -> np.ndarray:
    """A not-a-die patch of random speckle (a patterned cloth, gravel, a camera fault):
    without it, pure colour noise reads as a six because the only speckled thing the
    net ever saw was a face full of pips."""
    side = rng.randint(PATCH // 2, PATCH * 2)
    base = np.array([rng.uniform(0, 255) for _ in range(3)], np.float32)
    speckle = np.random.uniform(-1, 1, (side, side, 3)).astype(np.float32) * rng.uniform(20, 160)
    if rng.random() < 0.5:
        speckle = speckle.mean(axis=2, keepdims=True).repeat(3, axis=2)
    img = np.clip(base + speckle, 0, 255).astype(np.uint8)
    return cv2.resize(img, (PATCH, PATCH), interpolation=cv2.INTER_AREA if side > PATCH else cv2.INTER_NEAREST)


def face_sample(
    img: np.ndarray,
    dice: list,
    rng: random.Random,
    hard: list | None = None,
    mild: float = 0.0,
    noise: float = 0.0,
    shift: float = FaceMix.shift,
    sizes: tuple[float, float] = FaceMix.sizes,
    hard_share: float = FaceMix.hard_share,
    looks: tuple[float, float, float] = (FaceMix.small, FaceMix.tilt, FaceMix.squash),
) -> tuple[np.ndarray, int]:
    """A 32x32 patch around a die (class = face) or around no die (class 0); with
    probability ``mild`` its colours are left as the camera saw them, so the small net
    also learns the fine pip shapes and not only the colour-scrambled views; a die is
    cut off-centre and at another size as ``shift`` and ``sizes`` say, and damaged
    with ``looks`` (small, tilt and squash of FaceMix, see ``damage_patch``)."""
    if rng.random() < noise:
        return noise_patch(rng), 0
    if hard and rng.random() < hard_share:
        cx, cy, size = rng.choice(hard)
        face, size = 0, size * rng.uniform(0.8, 1.25)
        cx, cy = cx + rng.uniform(-0.1, 0.1) * size, cy + rng.uniform(-0.1, 0.1) * size
    elif rng.random() < 0.15:
        _, _, _, ref = rng.choice(dice)
        for _ in range(20):
            if rng.random() < 0.5:
                _, dx, dy, ds = rng.choice(dice)
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.75, 1.3) * ds
                cx, cy = dx + r * math.cos(a), dy + r * math.sin(a)
            else:
                cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
            if all(math.hypot(cx - dx, cy - dy) > 0.7 * ds for _, dx, dy, ds in dice):
                break
        face, size = 0, ref * rng.uniform(0.7, 1.4)
    else:
        face, cx, cy, ds = rng.choice(dice)
        cx += rng.uniform(-shift, shift) * ds
        cy += rng.uniform(-shift, shift) * ds
        size = ds * rng.uniform(*sizes)
    return damage_patch(cut_patch(img, cx, cy, size, rng.uniform(0, 360)), rng, mild, *looks), face


def damage_patch(
    patch: np.ndarray,
    rng: random.Random,
    mild: float = 0.0,
    small: float = FaceMix.small,
    tilt: float = FaceMix.tilt,
    squash: float = FaceMix.squash,
) -> np.ndarray:
    """What other cameras do to a die: tiny dice (a share ``small``), tilt (a share
    ``tilt``, foreshortened down to ``squash``), colour, shadow, blur, JPEG."""
    if rng.random() < small:  # dice as small as 12 px
        side = rng.randint(11, 22)
        patch = cv2.resize(cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA), (PATCH, PATCH))
    if rng.random() < tilt:  # tilt: foreshorten along a random direction
        a = rng.uniform(0, 180)
        r = cv2.getRotationMatrix2D((PATCH / 2, PATCH / 2), a, 1.0)
        r3 = np.vstack([r, [0, 0, 1]])
        sq = np.diag([1.0, rng.uniform(squash, 1.0), 1.0])
        t = np.array([[1, 0, -PATCH / 2], [0, 1, -PATCH / 2], [0, 0, 1]], float)
        mm = np.linalg.inv(r3) @ np.linalg.inv(t) @ sq @ t @ r3
        patch = cv2.warpPerspective(patch, mm, (PATCH, PATCH), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() >= mild:
        patch = colour_jitter(patch, rng, 0.1)
    if rng.random() < 0.1:
        patch = shadow(patch, rng)
    return degrade(patch, rng, 0.25)


def drawn_pool(
    images: dict, names: list[str], count: int, rng: random.Random, other_tables: float = 0.0
) -> list[tuple[np.ndarray, int]]:
    """``count`` drawn die faces (``synth_dice``) on crops of the training photos' tray
    (or, a share ``other_tables``, on drawn felt and wood), drawn once: drawing costs
    ~5 ms a patch, too much to do per step."""
    from training.synth_dice import draw_face

    pool = []
    for i in range(count):
        img = images[rng.choice(names)][0]
        side = rng.randint(40, 120)
        x, y = rng.randint(0, img.shape[1] - side), rng.randint(0, img.shape[0] - side)
        face = i % 6 + 1
        pool.append((draw_face(face, rng, img[y : y + side, x : x + side], other_tables), face))
    print(f"drew {count} die faces", flush=True)
    return pool


def _crop_without_dice(img: np.ndarray, dice: list, rng: random.Random) -> np.ndarray | None:
    """A square crop of the photo's table that no labelled die reaches, or None."""
    for _ in range(10):
        side = rng.randint(40, 120)
        x, y = rng.randint(0, img.shape[1] - side), rng.randint(0, img.shape[0] - side)
        if all(not (x - ds < dx < x + side + ds and y - ds < dy < y + side + ds) for _, dx, dy, ds in dice):
            return img[y : y + side, x : x + side]
    return None


def clutter_pool(images: dict, names: list[str], count: int, rng: random.Random) -> list[np.ndarray]:
    """``count`` drawn not-a-die patches (``synth_dice.draw_clutter``: specks, crumbs,
    coins, buttons, printed marks), some on crops of the training photos' tables clear
    of dice, drawn once."""
    from training.synth_dice import draw_clutter

    pool = []
    for _ in range(count):
        pool.append(draw_clutter(rng, _crop_without_dice(*images[rng.choice(names)], rng)))
    print(f"drew {count} things that are no die", flush=True)
    return pool


def training_patch(images: dict, names: list[str], rng: random.Random, mix: FaceMix) -> tuple[np.ndarray, int]:
    """One face-net training example: drawn, a weakly read die as the detector cuts
    it, drawn clutter (not a die), or a real die / not-a-die patch (``face_sample``),
    the latter from the photos as taken for a ``tray`` share, in the shares of ``mix``."""
    r = rng.random()
    if mix.pool and r < mix.drawn:
        patch, face = rng.choice(mix.pool)
        patch = (
            cv2.rotate(patch, rng.choice((cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)))
            if rng.random() < 0.75
            else patch
        )
        return damage_patch(patch, rng, mix.mild, *_looks(mix)), face
    if mix.weak and r < mix.drawn + mix.weak_share:
        n, face, cx, cy, size = rng.choice(mix.weak)
        cx, cy = cx + rng.uniform(-0.05, 0.05) * size, cy + rng.uniform(-0.05, 0.05) * size
        patch = cut_patch(images[n][0], cx, cy, size * rng.uniform(0.93, 1.07), rng.uniform(0, 360))
        return damage_patch(patch, rng, mix.mild, *_looks(mix)), face
    if mix.clutter and r < mix.drawn + mix.weak_share + mix.clutter_share:
        return damage_patch(rng.choice(mix.clutter), rng, mix.mild, *_looks(mix)), 0
    n = rng.choice(mix.photos if mix.photos and rng.random() < mix.tray else names)
    return face_sample(
        images[n][0],
        images[n][1],
        rng,
        mix.hard.get(n) if mix.hard else None,
        mix.mild,
        mix.noise,
        mix.shift,
        mix.sizes,
        mix.hard_share,
        _looks(mix),
    )


def _looks(mix: FaceMix) -> tuple[float, float, float]:
    """The small, tilt and squash of ``mix``, as ``damage_patch`` takes them."""
    return mix.small, mix.tilt, mix.squash


# ----------------------------------------------------------------------------- nets


def cbr(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)
    )


class Detector(nn.Module):
    """~320 px frame -> (centre logit, log size) at stride 4; receptive field > 60 px."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = cbr(3, 12, 2)
        self.s4 = nn.Sequential(cbr(12, 20, 2), cbr(20, 20))
        self.s8 = nn.Sequential(cbr(20, 40, 2), cbr(40, 40), cbr(40, 40, d=2), cbr(40, 40, d=4))
        self.up = nn.Sequential(nn.Conv2d(40, 20, 1, bias=False), nn.BatchNorm2d(20), nn.ReLU(inplace=True))
        self.fuse = cbr(20, 20)
        self.head = nn.Conv2d(20, 2, 1)
        self.head.bias.data[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 255.0 - 0.5
        a = self.s4(self.s2(x))
        b = self.s8(a)
        b = F.interpolate(self.up(b), scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(a + b))


class Faces(nn.Module):
    """32x32 patch -> 7 logits (not a die, 1..6)."""

    def __init__(self) -> None:
        super().__init__()
        self.f = nn.Sequential(
            cbr(3, 16),
            cbr(16, 16),
            nn.MaxPool2d(2),
            cbr(16, 32),
            cbr(32, 32),
            nn.MaxPool2d(2),
            cbr(32, 64),
            cbr(64, 64),
            nn.MaxPool2d(2),
            cbr(64, 64),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(64, 7),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.f(x / 255.0 - 0.5)


def focal_loss(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heatmap."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.ge(0.99).float()
    neg = 1 - pos
    pl = -torch.log(p) * (1 - p) ** 2 * pos
    nl = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    return (pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


def size_loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """L1 on the log die size, at the cells around each die centre only."""
    return (F.l1_loss(out[:, 1], y[:, 1], reduction="none") * y[:, 2]).sum() / y[:, 2].sum().clamp(min=1)


def detector_batch(
    images: dict, names: list[str], rng: random.Random, n: int = 16
) -> tuple[list[np.ndarray], torch.Tensor]:
    """``n`` detector windows from random training photos, and their targets."""
    xs, ys = [], []
    for _ in range(n):
        name = rng.choice(names)
        x, y = detector_sample(images[name][0], images[name][1], rng)
        xs.append(x)
        ys.append(y)
    return xs, torch.from_numpy(np.stack(ys))


def to_tensor(batch: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(np.stack(batch).transpose(0, 3, 1, 2).astype(np.float32))


# ----------------------------------------------------------------------------- training


def load_fused_onnx(net: nn.Module, path: Path) -> nn.Module:
    """Continue from an exported detector or face net: the exporter folded each
    BatchNorm into its conv, so the folded bias goes to the BatchNorm (kept frozen at
    identity statistics); it lists the last layer (the detector's head, the face net's
    Linear) first."""
    import onnx
    from onnx import numpy_helper

    weights = [numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer]
    last = net.head if isinstance(net, Detector) else net.f[-1]
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d) and m is not last]
    bns = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    pairs = [(weights[i], weights[i + 1]) for i in range(2, len(weights), 2)]
    for conv, bn, (w, b) in zip(convs, bns, pairs, strict=False):
        conv.weight.data = torch.from_numpy(w.copy())
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)
        bn.weight.data.fill_(1.0)
        bn.bias.data = torch.from_numpy(b.copy())
    last.weight.data = torch.from_numpy(weights[0].copy())
    last.bias.data = torch.from_numpy(weights[1].copy())
    return net


def one_cycle(net: nn.Module, lr: float, steps: int) -> Callable[[torch.Tensor], None]:
    """The optimiser every dice net here trains with, AdamW on a one-cycle rate over
    ``steps``: returns the function that takes one step on a batch's loss."""
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)

    def step(loss: torch.Tensor) -> None:
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()

    return step


def train_detector(
    images: dict, names: list[str], steps: int, rng: random.Random, init: Path | None = None
) -> Detector:
    """Train from scratch, or fine-tune ``init`` (an exported detector) at a lower rate
    with its BatchNorms frozen."""
    net = Detector() if init is None else load_fused_onnx(Detector(), init)
    learn = one_cycle(net, 3e-3 if init is None else 1e-3, steps)
    t0 = time.time()
    for step in range(steps):
        if init is not None:
            net.eval()
        xs, y = detector_batch(images, names, rng)
        out = net(to_tensor(xs))
        lh = focal_loss(out[:, 0], y[:, 0])
        ls = size_loss(out, y)
        loss = lh + ls
        learn(loss)
        if step % 100 == 0:
            print(f"det {step} heat {lh.item():.3f} size {ls.item():.3f} {time.time() - t0:.0f}s", flush=True)
    return net.eval()


def train_faces(
    images: dict,
    names: list[str],
    steps: int,
    rng: random.Random,
    init: Path | None = None,
    mix: FaceMix | None = None,
    lr: float | None = None,
    keep: float = 0.0,
) -> Faces:
    """Train from scratch, or fine-tune ``init`` at a lower rate (``lr`` if given),
    with patches mixed as ``mix`` says (the detector's false alarms, drawn faces...).

    ``keep`` > 0 (a fine-tune of an exported net only) adds, on every patch of a die,
    the distillation loss towards ``init``'s own soft outputs, weighted so: the net
    then learns new not-a-die patches while its reading of real dice, P(not a die)
    included, stays what it was.  Without it a fine-tune that taught the felt's specks
    as no die also made real tray 1s less surely dice, and the test split lost dice."""
    mix = mix or FaceMix()
    net = Faces()
    teacher = None
    if init is not None and init.suffix == ".onnx":
        net = load_fused_onnx(net, init).eval()  # BatchNorm stays at the folded identity
        teacher = cv2.dnn.readNetFromONNX(str(init)) if keep else None
    elif init is not None:
        net.load_state_dict(torch.load(init))
    learn = one_cycle(net, lr or (3e-3 if init is None else 1e-3), steps)
    t0 = time.time()
    for step in range(steps):
        batch = [training_patch(images, names, rng, mix) for _ in range(64)]
        ys = torch.tensor([y for _, y in batch])
        xs = [x for x, _ in batch]
        out = net(to_tensor(xs))
        loss = F.cross_entropy(out, ys, label_smoothing=0.05)
        kd = torch.zeros(())
        dice = ys > 0
        if teacher is not None and bool(dice.any()):
            teacher.setInput(cv2.dnn.blobFromImages([x for x, d in zip(xs, dice.tolist(), strict=True) if d]))
            soft = F.softmax(torch.from_numpy(teacher.forward().copy()) / KD_T, dim=1)
            kd = F.kl_div(F.log_softmax(out[dice] / KD_T, dim=1), soft, reduction="batchmean") * KD_T * KD_T
            loss = loss + keep * kd
        learn(loss)
        if step % 100 == 0:
            acc = (out.argmax(1) == ys).float().mean().item()
            print(
                f"faces {step} loss {loss.item():.3f} kd {kd.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s",
                flush=True,
            )
    return net.eval()


def export(net: nn.Module, shape: tuple[int, ...], path: Path) -> None:
    """ONNX with a fixed opset cv2.dnn reads; batch (and, but for a face net, the
    frame size) left dynamic."""
    dummy = torch.zeros(shape)
    dyn = {"x": {0: "n"}} if isinstance(net, Faces) else {"x": {0: "n", 2: "h", 3: "w"}}
    torch.onnx.export(
        net, dummy, str(path), input_names=["x"], output_names=["y"], opset_version=13, dynamic_axes=dyn, dynamo=False
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=data_dir() / "dice-tray")
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--det-steps", type=int, default=2500)
    ap.add_argument("--face-steps", type=int, default=4000)
    ap.add_argument("--det-finetune", type=int, default=0, help="then fine-tune this many steps at a lower rate")
    ap.add_argument("--det-init", type=Path, help="skip the first detector stage: fine-tune this exported detector")
    ap.add_argument(
        "--faces-hard",
        type=int,
        default=600,
        help="then fine-tune the face net this many steps with the detector's false alarms",
    )
    ap.add_argument("--mild", type=float, default=0.0, help="share of face patches trained without colour jitter")
    ap.add_argument(
        "--noise", type=float, default=0.0, help="share of face patches that are random speckle (not a die)"
    )
    ap.add_argument(
        "--drawn",
        type=float,
        default=0.0,
        help="share of face patches that are drawn dice (synth_dice), in the hard-negative fine-tune",
    )
    ap.add_argument("--drawn-pool", type=int, default=12000, help="how many drawn faces to draw once")
    ap.add_argument(
        "--drawn-tables", type=float, default=0.0, help="share of drawn faces drawn on drawn felt and wood (synth_dice)"
    )
    ap.add_argument(
        "--weak",
        type=float,
        default=0.0,
        help="share of face patches that are dice the models in --out read unsure or wrong",
    )
    ap.add_argument("--tables", type=int, default=0, help="also train on each photo's dice on this many drawn tables")
    ap.add_argument(
        "--hard-share", type=float, default=FaceMix.hard_share, help="share of face patches at detector false alarms"
    )
    ap.add_argument(
        "--clutter", type=float, default=0.0, help="share of face patches that are drawn clutter (not a die)"
    )
    ap.add_argument("--clutter-pool", type=int, default=4000, help="how many drawn clutter patches to draw once")
    ap.add_argument(
        "--tray", type=float, default=0.0, help="share of real face patches cut from the photos as taken (not tables)"
    )
    ap.add_argument("--small", type=float, default=FaceMix.small, help="share of face patches shrunk to 11-22 px dice")
    ap.add_argument("--tilt", type=float, default=FaceMix.tilt, help="share of face patches foreshortened")
    ap.add_argument(
        "--squash", type=float, default=FaceMix.squash, help="the most foreshortening of a tilted patch (cos tilt)"
    )
    ap.add_argument("--lr", type=float, help="peak rate of the face net's hard-negative fine-tune (default 1e-3)")
    ap.add_argument(
        "--keep",
        type=float,
        default=0.0,
        help="weight of the distillation towards the exported face net being fine-tuned, on die patches",
    )
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--only",
        choices=("det", "faces", "both", "none"),
        default="both",
        help="which nets to train from scratch (none: only the hard-negative fine-tune)",
    )
    args = ap.parse_args()
    torch.set_num_threads(1)  # deterministic and kind to a shared machine
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    rng = random.Random(args.seed)
    labels = load_split(args.data)
    fit = fit_names(labels)
    print(f"{len(fit)} training photos, {len(labels) - len(fit)} held out for thresholds", flush=True)
    images = {n: (cv2.imread(str(args.data / "images" / n)), labels[n]) for n in fit}
    photos = list(fit)
    fit = fit + on_drawn_tables(images, fit, args.tables, rng)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in ("det", "both") and args.det_init is not None:
        det = train_detector(images, fit, args.det_finetune, rng, args.det_init)
        torch.save(det.state_dict(), args.out / "dice_detector.pt")
        export(det, (1, 3, 320, 320), args.out / "dice_detector.onnx")
    elif args.only in ("det", "both"):
        det = train_detector(images, fit, args.det_steps, rng)
        if args.det_finetune:
            export(det, (1, 3, 320, 320), args.out / "dice_detector.onnx")
            det = train_detector(images, fit, args.det_finetune, rng, args.out / "dice_detector.onnx")
        torch.save(det.state_dict(), args.out / "dice_detector.pt")  # for fine-tuning; not shipped
        export(det, (1, 3, 320, 320), args.out / "dice_detector.onnx")
    if args.only in ("faces", "both"):
        faces = train_faces(images, fit, args.face_steps, rng, mix=FaceMix(mild=args.mild))
        torch.save(faces.state_dict(), args.out / "dice_faces.pt")  # for fine-tuning; not shipped
        export(faces, (1, 3, PATCH, PATCH), args.out / "dice_faces.onnx")
    if args.faces_hard:
        mix = FaceMix(
            mine_negatives(images, fit, args.out),
            args.mild,
            args.noise,
            drawn=args.drawn,
            weak_share=args.weak,
            hard_share=args.hard_share,
            clutter_share=args.clutter,
            photos=photos,
            tray=args.tray,
            small=args.small,
            tilt=args.tilt,
            squash=args.squash,
        )
        if args.clutter:
            mix.clutter = clutter_pool(images, fit, args.clutter_pool, rng)
        if args.weak:
            mix.weak = mine_dice(images, fit, args.out)
        if args.drawn:
            mix.pool = drawn_pool(images, fit, args.drawn_pool, rng, args.drawn_tables)
        init = args.out / "dice_faces.pt"
        faces = train_faces(
            images,
            fit,
            args.faces_hard,
            rng,
            init if init.exists() else args.out / "dice_faces.onnx",
            mix,
            args.lr,
            args.keep,
        )
        torch.save(faces.state_dict(), args.out / "dice_faces.pt")
        export(faces, (1, 3, PATCH, PATCH), args.out / "dice_faces.onnx")
    return 0


if __name__ == "__main__":
    sys.exit(main())
