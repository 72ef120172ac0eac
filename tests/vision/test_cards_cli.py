"""The card commands' contract: ``familiar vision enroll`` and ``familiar vision cards``."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main
from support import DATA as TEST_DATA
from support import ROOT

DATA = TEST_DATA / "cards"


def grid_names(image: str) -> list[str]:
    with (DATA / "labels.csv").open() as fh:
        rows = [r for r in csv.DictReader(fh) if r["image"] == image]
    return [r["card"] for r in sorted(rows, key=lambda r: (int(r["row"]), int(r["col"])))]


ENROL = "red-2-20161231_114330.jpg"
TEST = "red-2-20170101_124832.jpg"


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("cli") / "deck"
    status = main(
        [
            "vision",
            "enroll",
            "--catalog",
            str(directory),
            "--grid",
            "3x3",
            "--names",
            ",".join(grid_names(ENROL)),
            str(DATA / "images" / ENROL),
        ]
    )
    assert status == 0
    return directory


def test_cards_json_lines(deck: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.jpg"
    status = main(["vision", "cards", "--catalog", str(deck), "--json", str(DATA / "images" / TEST), str(missing)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1  # one image could not be read
    good, bad = lines
    assert good["image"] == str(DATA / "images" / TEST)
    assert set(good) == {"image", "cards", "ms"} and good["ms"] > 0
    assert sorted(c["card"] for c in good["cards"]) == sorted(grid_names(TEST))
    for card in good["cards"]:
        assert set(card) == {"card", "corners", "confidence"}
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
        assert 0.0 <= card["confidence"] <= 1.0
    assert bad["image"] == str(missing) and "no such file" in bad["error"]


def test_unknown_cards_are_null(deck: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = "green-1-20170101_124953.jpg"
    assert main(["vision", "cards", "--catalog", str(deck), "--json", str(DATA / "images" / other)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [c["card"] for c in record["cards"]] == [None] * 9


def test_human_output(deck: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "cards", "--catalog", str(deck), str(DATA / "images" / TEST)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(DATA / "images" / TEST) + ": ") and "2-red-solid-oval" in out and " ms)" in out


def test_enroll_one_card_with_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    from vision.cards import find_cards

    frame = cv2.imread(str(DATA / "images" / ENROL))
    quad = find_cards(frame)[0]
    x0, y0 = (quad.min(axis=0) - 30).astype(int)
    x1, y1 = (quad.max(axis=0) + 30).astype(int)
    crop = tmp_path / "one.png"
    cv2.imwrite(str(crop), frame[max(y0, 0) : y1, max(x0, 0) : x1])
    directory = tmp_path / "deck"
    assert (
        main(
            [
                "vision",
                "enroll",
                "--catalog",
                str(directory),
                "--name",
                "Expelliarmus",
                "--data",
                '{"dice": 2, "curse": true}',
                str(crop),
            ]
        )
        == 0
    )
    index = json.loads((directory / "catalog.json").read_text())
    assert [(c["name"], c["data"]) for c in index["cards"]] == [("Expelliarmus", {"dice": 2, "curse": True})]
    assert "enrolled 1 card" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--grid", "3x3", "--names", "a,b,c"], "3 names given for a 3x3 grid"),
        (["--grid", "2x2", "--names", "a,b,c,d"], "found 9 cards"),
        (["--grid", "3x3", "--names", "a,a,b,c,d,e,f,g,h"], "duplicate card names: a"),
        (["--name", "x"], "expected exactly 1"),
        (["--grid", "3x3"], "--grid needs --names"),
        ([], "give either --name"),
    ],
)
def test_bad_enrolment_exits_2_and_keeps_the_deck(
    deck: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    before = (deck / "catalog.json").read_bytes()
    status = main(["vision", "enroll", "--catalog", str(deck), *args, str(DATA / "images" / ENROL)])
    assert status == 2
    assert message in capsys.readouterr().err
    assert (deck / "catalog.json").read_bytes() == before


def test_corrupt_image_and_missing_catalog(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"garbage")
    assert main(["vision", "enroll", "--catalog", str(tmp_path / "deck"), "--name", "x", str(bad)]) == 2
    assert "not an image" in capsys.readouterr().err
    assert main(["vision", "cards", "--catalog", str(tmp_path / "nowhere"), str(bad)]) == 2
    assert "not a catalog" in capsys.readouterr().err


def test_empty_catalog_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = tmp_path / "deck"
    directory.mkdir()
    (directory / "catalog.json").write_text('{"format": 1, "cards": []}')
    assert main(["vision", "cards", "--catalog", str(directory), str(DATA / "images" / TEST)]) == 2
    assert "empty" in capsys.readouterr().err


def test_familiar_command_runs_as_a_process(deck: Path) -> None:
    """The real entry point, as other tools call it: stdout carries only JSON lines."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "device.cli",
            "vision",
            "cards",
            "--catalog",
            str(deck),
            "--json",
            str(DATA / "images" / TEST),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    record = json.loads(out)
    assert len(record["cards"]) == 9 and all(c["card"] for c in record["cards"])
