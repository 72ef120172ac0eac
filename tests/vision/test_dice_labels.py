"""The benchmark's label fixes: applied exactly where they say, and loud when stale."""

from __future__ import annotations

from pathlib import Path

import pytest

import bench.dice as bench_dice
from bench.dice import load_labels

LABELS = """image,face,x1,y1,x2,y2,split
a.jpg,2,10,10,30,30,test
a.jpg,5,50,50,70,70,test
b.jpg,1,10,10,30,30,train
"""
HEADER = "image,x1,y1,x2,y2,was,face,why\n"


def tray(tmp_path: Path, fixes: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "labels.csv").write_text(LABELS)
    (tmp_path / "fixes.csv").write_text(HEADER + fixes)
    monkeypatch.setattr(bench_dice, "FIXES", tmp_path / "fixes.csv")
    return tmp_path


def test_a_fix_changes_one_face_and_adds_a_die_in_the_photos_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tray(tmp_path, "a.jpg,10,10,30,30,2,3,three pips\na.jpg,80,80,100,100,,6,left unlabelled\n", monkeypatch)
    fixed = load_labels(root, "test")
    assert sorted(lab.face for lab in fixed["a.jpg"]) == [3, 5, 6]
    assert sorted(lab.face for lab in load_labels(root, "test", fixed=False)["a.jpg"]) == [2, 5]
    assert [lab.face for lab in load_labels(root, "train")["b.jpg"]] == [1]


def test_a_fix_of_a_photo_not_held_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tray(tmp_path, "z.jpg,10,10,30,30,2,3,another photo\n", monkeypatch)
    assert sorted(lab.face for lab in load_labels(root, "test")["a.jpg"]) == [2, 5]


def test_a_stale_fix_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tray(tmp_path, "a.jpg,10,10,30,30,4,3,the label says 2 not 4\n", monkeypatch)
    with pytest.raises(ValueError, match="no label 4"):
        load_labels(root, "test")
