"""Blend two exported face nets of the same layers by a weighted mean of their weights.

A fine-tune that starts from the shipped net stays in the same basin, so the mean of
the two is a net between them: ``--share`` of the fine-tune's change is kept.  That
trades what the fine-tune learnt (no dice on specks) against what it may have
loosened (the tray's dice), without another training run.  Needs ``onnx`` (the
training venv)::

    python -m training.blend_dice_nets SHIPPED.onnx TUNED.onnx --share 0.5 --out OUT.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import onnx
from onnx import numpy_helper


def blend(base: Path, tuned: Path, share: float, out: Path) -> None:
    """Write ``base + share * (tuned - base)``, weight by weight, to ``out``."""
    a, b = onnx.load(str(base)), onnx.load(str(tuned))
    if [tuple(t.dims) for t in a.graph.initializer] != [tuple(t.dims) for t in b.graph.initializer]:
        raise ValueError("the two nets do not have the same weights")
    for ta, tb in zip(a.graph.initializer, b.graph.initializer, strict=True):
        wa, wb = numpy_helper.to_array(ta), numpy_helper.to_array(tb)
        ta.CopyFrom(numpy_helper.from_array((wa + share * (wb - wa)).astype(wa.dtype), ta.name))
    onnx.save(a, str(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("base", type=Path)
    ap.add_argument("tuned", type=Path)
    ap.add_argument("--share", type=float, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    blend(args.base, args.tuned, args.share, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
