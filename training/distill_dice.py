"""Distil dice nets: the shipped ones into cheaper students, several into one.

The shipped nets (``train_dice.py``) are the teachers: each student learns the
teacher's outputs on the same training views (train split, label fixes applied) as
well as the labels, which keeps most of what the teacher learnt in far fewer steps
than training the small net from the labels alone.  Same venv as ``train_dice.py``:

    python -m training.distill_dice --net faces --steps 8000 --out D
    python -m training.distill_dice --net det --steps 4000 --out D

then copy D's ONNX over the shipped one and run ``pick_dice_thresholds.py``.  The
teachers run through cv2.dnn from the exported ONNX files, exactly as they ship.

The shipped detector is the ``DetectorPlain`` student (cv2.dnn has no fast path for
dilated convolutions), and the shipped face net the previous one taught by an
ensemble of itself and two nets of other seeds (``--face-teachers``, ``--face-init``).
Their recipes, and the students measured and not kept, are in
``docs/experiments/2026-11-dice-reader.md``.

Students:
* ``DetectorPlain``: the teacher with dilation 1 in its two dilated convolutions
  (receptive field 71 instead of 135 px of the 320 px frame), all layers trained.
* ``FacesLite``: the face net at 3/4 of the channels (12/24/48/48), ~57% of the work.
* ``DetectorLite``: the detector with its two dilated stride-8 convolutions (the
  costliest layers on cv2.dnn) replaced by a stride-16 stage that is upsampled and
  added back; it starts from the teacher's other layers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from bench.dice import data_dir
from training import train_dice as td
from vision.dice.nets import MODELS

T = 2.0  # distillation temperature of the face net's soft targets


class FacesLite(td.Faces):
    """The face net's layout at 12/24/48/48 channels."""

    def __init__(self) -> None:
        nn.Module.__init__(self)
        cbr = td.cbr
        self.f = nn.Sequential(
            cbr(3, 12),
            cbr(12, 12),
            nn.MaxPool2d(2),
            cbr(12, 24),
            cbr(24, 24),
            nn.MaxPool2d(2),
            cbr(24, 48),
            cbr(48, 48),
            nn.MaxPool2d(2),
            cbr(48, 48),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(48, 7),
        )


class DetectorLite(nn.Module):
    """The detector with a stride-16 stage in place of its dilated convolutions."""

    def __init__(self, teacher: td.Detector) -> None:
        super().__init__()
        cbr = td.cbr
        self.s2, self.s4, self.up, self.fuse, self.head = teacher.s2, teacher.s4, teacher.up, teacher.fuse, teacher.head
        self.s8 = teacher.s8[:2]
        self.s16 = nn.Sequential(cbr(40, 40, 2), cbr(40, 40))
        self.up16 = nn.Sequential(nn.Conv2d(40, 40, 1, bias=False), nn.BatchNorm2d(40), nn.ReLU(inplace=True))
        nn.init.zeros_(self.up16[1].weight)  # the new stage starts by adding nothing
        self.copied = [self.s2, self.s4, self.s8, self.up, self.fuse]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 255.0 - 0.5
        a = self.s4(self.s2(x))
        b = self.s8(a)
        b = b + F.interpolate(self.up16(self.s16(b)), scale_factor=2.0, mode="nearest")
        b = F.interpolate(self.up(b), scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(a + b))

    def train_mode(self) -> None:
        """New layers learn their BatchNorm statistics; the teacher's layers keep the
        identity statistics their folded biases were loaded with."""
        self.train()
        for m in self.copied:
            m.eval()


class DetectorPlain(td.Detector):
    """The teacher itself with its two dilated convolutions made plain (dilation 1):
    the same layers and weights to start from, a smaller receptive field (71 instead
    of 135 px of the 320 px frame), and no dilated convolutions for cv2.dnn."""

    def __init__(self, teacher: td.Detector) -> None:
        nn.Module.__init__(self)
        self.s2, self.s4, self.s8, self.up, self.fuse, self.head = (
            teacher.s2,
            teacher.s4,
            teacher.s8,
            teacher.up,
            teacher.fuse,
            teacher.head,
        )
        for block in self.s8[2:]:
            block[0].dilation, block[0].padding = (1, 1), (1, 1)
        self.copied = [self.s2, self.s4, self.s8, self.up, self.fuse]

    train_mode = DetectorLite.train_mode


def teacher_out(net: cv2.dnn.Net, batch: list[np.ndarray]) -> torch.Tensor:
    """The shipped net's raw outputs on uint8 BGR images, as cv2.dnn computes them."""
    net.setInput(cv2.dnn.blobFromImages(batch))
    return torch.from_numpy(net.forward().copy())


def distil_faces(
    images: dict,
    names: list[str],
    steps: int,
    rng: random.Random,
    out: Path,
    teachers: list[Path] | None = None,
    init: Path | None = None,
    shift: float = td.FaceMix.shift,
    sizes: tuple[float, float] = td.FaceMix.sizes,
) -> nn.Module:
    """FacesLite from scratch, or with ``init`` the full face net fine-tuned from that
    export (its BatchNorm stays at the folded identity), on the mix of the shipped face
    net's last run, learning the mean soft targets of ``teachers`` (the shipped face
    net by default): several nets' mean is an ensemble distilled into one net."""
    mix = td.FaceMix(
        td.mine_negatives(images, names, MODELS), 0.5, 0.03, drawn=0.3, weak_share=0.1, shift=shift, sizes=sizes
    )
    mix.weak = td.mine_dice(images, names, MODELS)
    mix.pool = td.drawn_pool(images, names, 12000, rng)
    nets = [cv2.dnn.readNetFromONNX(str(p)) for p in teachers or [MODELS / "dice_faces.onnx"]]
    net = FacesLite() if init is None else td.load_fused_onnx(td.Faces(), init)
    learn = td.one_cycle(net, 3e-3 if init is None else 1e-3, steps)
    net.train(init is None)
    t0 = time.time()
    for step in range(steps):
        batch = [td.training_patch(images, names, rng, mix) for _ in range(64)]
        xs = [x for x, _ in batch]
        ys = torch.tensor([y for _, y in batch])
        soft = torch.stack([F.softmax(teacher_out(t, xs) / T, dim=1) for t in nets]).mean(dim=0)
        logits = net(td.to_tensor(xs))
        kd = F.kl_div(F.log_softmax(logits / T, dim=1), soft, reduction="batchmean") * T * T
        loss = 0.5 * F.cross_entropy(logits, ys, label_smoothing=0.05) + 0.5 * kd
        learn(loss)
        if step % 100 == 0:
            acc = (logits.argmax(1) == ys).float().mean().item()
            print(
                f"faces {step} loss {loss.item():.3f} kd {kd.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s",
                flush=True,
            )
        if step % 1000 == 999:
            td.export(net.eval(), (1, 3, td.PATCH, td.PATCH), out / f"dice_faces_{step + 1}.onnx")
            net.train(init is None)
    return net.eval()


def distil_detector(
    images: dict,
    names: list[str],
    steps: int,
    rng: random.Random,
    out: Path,
    student: type = DetectorLite,
    source: Path = MODELS / "dice_detector.onnx",
) -> nn.Module:
    """A detector student from the teacher's layers (``source``, a ``train_dice.Detector``):
    label focal loss plus the teacher's heat."""
    teacher = cv2.dnn.readNetFromONNX(str(source))
    net = student(td.load_fused_onnx(td.Detector(), source))
    learn = td.one_cycle(net, 2e-3, steps)
    t0 = time.time()
    for step in range(steps):
        net.train_mode()
        xs, y = td.detector_batch(images, names, rng)
        hot = torch.sigmoid(teacher_out(teacher, xs)[:, 0])
        o = net(td.to_tensor(xs))
        lh = td.focal_loss(o[:, 0], y[:, 0])
        pos = y[:, 0].ge(0.99).float().sum().clamp(min=1)
        lt = F.binary_cross_entropy_with_logits(o[:, 0], hot, reduction="sum") / pos
        ls = td.size_loss(o, y)
        loss = lh + 0.5 * lt + ls
        learn(loss)
        if step % 100 == 0:
            print(
                f"det {step} heat {lh.item():.3f} teacher {lt.item():.3f} size {ls.item():.3f} {time.time() - t0:.0f}s",
                flush=True,
            )
        if step % 1000 == 999:
            td.export(net.eval(), (1, 3, 320, 320), out / "dice_detector.onnx")
    return net.eval()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=data_dir() / "dice-tray")
    ap.add_argument("--net", choices=("faces", "det", "plain"), required=True)
    ap.add_argument("--steps", type=int, default=8000)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--teacher",
        type=Path,
        default=MODELS / "dice_detector.onnx",
        help="the detector to distil (a train_dice.Detector export)",
    )
    ap.add_argument(
        "--face-teachers",
        type=Path,
        nargs="+",
        help="face nets whose mean the face student learns (default: the shipped one)",
    )
    ap.add_argument(
        "--face-init", type=Path, help="fine-tune this exported face net instead of a FacesLite from scratch"
    )
    ap.add_argument(
        "--face-shift",
        type=float,
        default=td.FaceMix.shift,
        help="patches cut up to this share of the die side off-centre",
    )
    ap.add_argument(
        "--face-sizes",
        type=float,
        nargs=2,
        default=td.FaceMix.sizes,
        help="patches cut at the die side times this range",
    )
    args = ap.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    rng = random.Random(args.seed)
    labels = td.load_split(args.data)
    fit = td.fit_names(labels)
    print(f"{len(fit)} training photos, {len(labels) - len(fit)} held out", flush=True)
    images = {n: (cv2.imread(str(args.data / "images" / n)), labels[n]) for n in fit}
    args.out.mkdir(parents=True, exist_ok=True)
    if args.net == "faces":
        net = distil_faces(
            images,
            fit,
            args.steps,
            rng,
            args.out,
            args.face_teachers,
            args.face_init,
            args.face_shift,
            tuple(args.face_sizes),
        )
        td.export(net, (1, 3, td.PATCH, td.PATCH), args.out / "dice_faces.onnx")
    else:
        student = DetectorPlain if args.net == "plain" else DetectorLite
        net = distil_detector(images, fit, args.steps, rng, args.out, student, args.teacher)
        td.export(net, (1, 3, 320, 320), args.out / "dice_detector.onnx")
    return 0


if __name__ == "__main__":
    sys.exit(main())
