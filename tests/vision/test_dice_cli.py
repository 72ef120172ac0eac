"""The ``familiar vision dice`` / ``teach-die`` contract other tools rely on."""

from __future__ import annotations

import argparse
import importlib.util
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.taught_dice import FACES, camera_finish, empty_tray, paste_die, random_look
from support import DATA as TEST_DATA
from support import ROOT
from support.photos import local_photos
from vision.dice import cli as dice_cli

DATA = TEST_DATA / "dice"
PHOTO = DATA / "IMG_20191208_112246.jpg"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    dice_cli.add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    status = args.func(args)
    out = capsys.readouterr()
    return status, out.out, out.err


def png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header claims a huge size (the pixels never need to exist)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk)


def test_json_lines_per_image_with_errors_isolated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.jpg").write_text("not a photo")
    (tmp_path / "empty.jpg").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "dot.png"), np.zeros((1, 1, 3), np.uint8))
    png_header_only(tmp_path / "huge.png", 8660, 5774)  # 50 megapixels
    images = [
        str(PHOTO),
        str(tmp_path / "missing.jpg"),
        str(tmp_path / "notes.jpg"),
        str(tmp_path / "empty.jpg"),
        str(tmp_path / "dot.png"),
        str(tmp_path / "huge.png"),
        str(PHOTO),
    ]
    status, out, _ = run(["dice", "--json", *images], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [r["image"] for r in records] == images
    good = [records[0], records[-1]]
    for r in good:
        assert set(r) == {"image", "dice", "ms"}
        assert r["ms"] > 0
        for d in r["dice"]:
            assert {"value", "x", "y", "confidence"} <= set(d)
            assert isinstance(d["x"], float) and 0 <= d["confidence"] <= 1
    expected = ("no such file", "not an image", "empty file", "too small", "megapixel limit")
    for r, words in zip(records[1:-1], expected, strict=True):
        assert set(r) == {"image", "error"} and words in r["error"], r


def test_values_match_the_labels(capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    with (DATA / "labels.csv").open() as fh:
        faces = sorted(int(r["face"]) for r in csv.DictReader(fh) if r["image"] == PHOTO.name)
    status, out, _ = run(["dice", "--json", str(PHOTO)], capsys)
    assert status == 0
    dice = json.loads(out)["dice"]
    assert len(dice) == len(faces)
    for value in (d["value"] for d in dice if d["value"] is not None):
        faces.remove(value)  # each value read is a labelled face
    assert len(faces) <= 1  # at most one die unsure


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["dice", str(PHOTO)], capsys)
    assert status == 0 and out.startswith(f"{PHOTO}: ") and " dice: " in out and " ms)" in out


def test_teach_then_read_a_symbol_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every face taught from two photos of the rendered die alone in an emptied real
    tray, then a real roll with the die among its pipped dice, read with ``--die``."""
    tray = empty_tray(*local_photos("tray")["IMG_20191208_111904.jpg"])
    rng = np.random.default_rng(3)
    for face in FACES:
        paths = []
        for k in range(2):
            p = tmp_path / f"{face}{k}.png"
            cv2.imwrite(str(p), camera_finish(paste_die(tray, face, random_look(rng, [], tray.shape[0])), rng))
            paths.append(str(p))
        status, out, err = run(
            ["teach-die", "--die", "clue", "--face", face, "--state-dir", str(tmp_path / "state"), *paths], capsys
        )
        assert status == 0, err
    stored = sorted(p.name for p in (tmp_path / "state" / "dice" / "clue").iterdir())
    assert stored == sorted([f"{face}-{k}.png" for face in FACES for k in (0, 1)] + ["die.json"])
    frame, labels = local_photos("dice")[PHOTO.name]
    look = random_look(rng, labels, frame.shape[0])
    roll = tmp_path / "roll.png"
    cv2.imwrite(str(roll), camera_finish(paste_die(frame, "tower", look), rng))
    status, out, _ = run(["dice", "--json", "--die", "clue", "--state-dir", str(tmp_path / "state"), str(roll)], capsys)
    dice = json.loads(out)["dice"]
    assert status == 0 and len(dice) == len(labels) + 1
    tower = [d["value"] for d in dice if abs(d["x"] - look.x) < 15 and abs(d["y"] - look.y) < 15]
    assert tower == ["tower"]
    assert not any(isinstance(d["value"], str) for d in dice if d["value"] != "tower")


def test_unknown_taught_die_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["dice", "--die", "nope", "--state-dir", str(tmp_path), str(PHOTO)], capsys)
    assert status == 2 and "no taught die" in err


@pytest.mark.skipif(
    importlib.util.find_spec("vision.cards.cli") is None, reason="familiar entry point needs vision.cards.cli"
)
def test_familiar_entry_point(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "device.cli", "vision", "dice", "--json", str(PHOTO)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["image"] == str(PHOTO)
