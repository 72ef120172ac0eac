"""The dice reader on real tray photos it never trained on, and on variations of them.

The floors below are regression floors set just under what the current models
measure on these 87 dice (87 right, 0 wrong, 0 unsure or missed, 0 extra; the
previous detector read 84, and a printed square on a box rim as a 1), NOT the
issue's targets (99.5 % right):
bench/dice.py reports the gap honestly.  Labels carry the benchmark's checked fixes
(bench/dice_label_fixes.csv: here, a real 2 in IMG_20191208_111730 left unlabelled).

The photos in tests/data/dice are from the dice-tray *test* split (BSD-3, LICENSE
beside them).  Variations (rotation, scale, blur, white balance, JPEG, shadows) are
made here from those photos, with the labels moved along, to check that the reader
is not tied to this camera, light or die size.  The rule everywhere: a wrong value is
a failure; an unsure die is tolerated within a small share.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vision.dice.faces
import vision.dice.find
import vision.dice.read
from bench.dice import BOX_FRAME, Label, Score
from bench.dice_variations import VARIANTS, framed
from device.config import CameraConfig
from support.photos import local_photos
from vision.dice.faces import face_share, likeliest_face
from vision.dice.find import Candidate
from vision.dice.nets import thresholds
from vision.dice.patch import cut_patch, halved, shrunk
from vision.dice.read import DiceReading, Die, candidates, decide, read_dice
from vision.images import ImageError

PHOTOS = local_photos("dice")


def score(variant: dict[str, tuple[np.ndarray, list[Label]]]) -> Score:
    s = Score()
    for name, (frame, labels) in variant.items():
        s.add(name, labels, [(d.value, d.x, d.y) for d in read_dice(frame).dice])
    return s


def assert_values_fit(reading: DiceReading, labels: list[Label]) -> None:
    """Every die found; each value read is one of the labelled faces; at most one unsure."""
    assert len(reading.dice) == len(labels)
    faces = sorted(lab.face for lab in labels)
    for value in reading.values:
        faces.remove(value)
    assert len(reading.unsure) <= 1


def test_real_photos_read_right() -> None:
    s = score(PHOTOS)
    assert s.dice == 87
    assert s.wrong == 0, s.failures
    assert s.right >= 0.97 * s.dice, s.failures
    assert s.extra == 0, s.failures


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variations_are_read_without_wrong_values(name: str) -> None:
    variant = {n: VARIANTS[name](f, lab) for n, (f, lab) in PHOTOS.items()}
    s = score(variant)
    assert s.wrong <= 1, s.failures  # measured: 0, 1 zoomed 1.4 (2 at ~12 px before sure_small)
    # Dice of ~12 px are held to a surer face (Thresholds.sure_for), so more of them
    # are left unsure: measured 0.72 there (0.92 before, with 1 wrong), 0.91 to 1.0 else.
    floor = 0.68 if name.startswith("shrunk 0.32") else 0.86
    assert s.right >= floor * s.dice, s.failures
    # A die with a value where none lies is as bad as a wrong value (measured: 0 or 1,
    # the printed square on a box rim, or a speck at 70 px dice); dice cut by the new
    # frame edge, whose centres and labels fall outside, are reported unsure.
    assert s.extra - s.extra_unsure <= 1, s.failures
    assert s.extra_unsure <= 5, s.failures  # measured: 0 to 5 (zoomed 1.8)


def test_dice_small_in_a_large_frame_get_a_finer_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the box's 1280x720 camera frame the photos' dice (30-45 px) show at ~10 px in
    the detector's first look, where it misses some: the finer look finds them."""
    big = {n: framed(f, lab, 1.0) for n, (f, lab) in PHOTOS.items()}
    finer = score(big)
    monkeypatch.setattr(vision.dice.find, "DIE_IN_DETECTOR", (0.0, 26.0, math.inf))
    first_only = score(big)
    assert finer.wrong == 0 and finer.missed == 0 and finer.right >= 86, finer.failures  # measured: 87 right
    assert first_only.missed >= 8, first_only.failures  # measured: 73 right, 1 wrong, 10 missed
    assert BOX_FRAME == (CameraConfig().width, CameraConfig().height)  # the frame measured is the box's


def test_touching_dice_are_read_apart() -> None:
    """Two real dice cut out and pasted edge to edge are two dice, each read right."""
    frame, labels = PHOTOS["IMG_20191208_111423.jpg"]
    a, b = sorted(labels, key=lambda lab: lab.size)[-2:]
    canvas = np.full_like(frame, np.median(frame.reshape(-1, 3), axis=0).astype(np.uint8))
    placed = []
    for lab, x in ((a, 300), (b, 300 + (a.size + b.size) / 2 * 0.92)):
        r = int(lab.size / 2 * 0.92)
        tile = frame[int(lab.y) - r : int(lab.y) + r, int(lab.x) - r : int(lab.x) + r]
        canvas[320 - r : 320 + r, int(x) - r : int(x) + r] = tile
        placed.append(Label(lab.face, float(int(x)), 320.0, lab.size))
    s = Score()
    s.add("touching", placed, [(d.value, d.x, d.y) for d in read_dice(canvas).dice])
    assert s.right == 2, s.failures


def test_a_small_die_against_a_big_one_is_its_own_die() -> None:
    """A small purple 1 pressed against a big yellow 6: the detector stretches the 6's
    box over both, and the old duplicate-peak rule (within half the larger side) threw
    the 1 away; now it is read, and the 6 is read once."""
    frame, labels = PHOTOS["IMG_20191208_111328.jpg"]
    one = next(lab for lab in labels if lab.face == 1 and abs(lab.x - 266) < 5)
    six = next(lab for lab in labels if lab.face == 6 and abs(lab.x - 238) < 5)
    reading = read_dice(frame)
    near = lambda lab: [d for d in reading.dice if math.hypot(d.x - lab.x, d.y - lab.y) < lab.size / 2]  # noqa: E731
    assert [d.value for d in near(one)] == [1]
    assert [d.value for d in near(six)] == [6]


def test_sure_non_dice_get_no_more_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """Giving up on candidates whose views can no longer bring P(not a die) under the
    ``not_die`` threshold saves face patches and changes no die the reader reports."""
    seen: list[int] = []
    patches = vision.dice.faces._face_probs

    def counted(frame: np.ndarray, found: list, views: tuple, look: object = None) -> np.ndarray:
        seen.append(len(found) * len(views))
        return patches(frame, found, views, look)

    monkeypatch.setattr(vision.dice.faces, "_face_probs", counted)
    t = thresholds()
    used: dict[float, tuple[list, int]] = {}
    for give_up in (t.not_die, 1.0):
        seen.clear()
        used[give_up] = (
            [
                [decide(c, p, t, frame.shape) for c, p in candidates(frame, give_up=give_up)]
                for frame, _ in PHOTOS.values()
            ],
            sum(seen),
        )
    (pruned, spared), (every, cost) = used[t.not_die], used[1.0]
    assert [[d for d in photo if d] for photo in pruned] == [[d for d in photo if d] for photo in every]
    assert spared < cost


def test_empty_tray_has_no_dice() -> None:
    frame, _ = PHOTOS["IMG_20191208_112605.jpg"]
    empty = np.full_like(frame, np.median(frame.reshape(-1, 3), axis=0).astype(np.uint8))
    assert read_dice(cv2.GaussianBlur(empty, (0, 0), 2)).dice == ()
    noise = np.random.default_rng(1).integers(0, 255, frame.shape, dtype=np.uint8)
    assert len(read_dice(noise).values) <= 1


@settings(max_examples=30, deadline=None)
@given(
    scale=st.floats(0.03, 3.0),
    corner=st.tuples(st.floats(0.0, 0.95), st.floats(0.0, 0.95)),
    aspect=st.floats(0.25, 4.0),
)
def test_any_part_of_a_photo_at_any_scale_reads_without_error(
    scale: float, corner: tuple[float, float], aspect: float
) -> None:
    """Whatever the frame's size and shape, and however few or large the dice in it
    (a first and a finer look at any scale, windows cut at the frame's edges), the
    reader returns dice inside the frame with sane fields, never an exception."""
    frame, _ = PHOTOS["IMG_20191208_111730.jpg"]
    part = frame[int(corner[1] * frame.shape[0]) :, int(corner[0] * frame.shape[1]) :]
    w, h = max(16, int(part.shape[1] * scale)), max(16, int(part.shape[0] * scale * aspect))
    for die in read_dice(cv2.resize(part, (w, h))).dice:
        assert -1 <= die.x <= w + 1 and -1 <= die.y <= h + 1
        assert die.value in (None, 1, 2, 3, 4, 5, 6) and 0.0 <= die.confidence <= 1.0


def test_reading_shape_and_json() -> None:
    frame, labels = PHOTOS["IMG_20191208_112246.jpg"]
    reading = read_dice(frame)
    assert isinstance(reading, DiceReading)
    assert len(reading.dice) == len(labels)
    die = reading.dice[0]
    assert isinstance(die, Die) and len(die.corners) == 4
    assert set(die.to_json()) == {"value", "x", "y", "corners", "confidence"}
    assert 0.0 <= die.confidence <= 1.0
    assert_values_fit(reading, labels)


def test_unsure_dice_are_listed_apart() -> None:
    sure = Die(3, 10.0, 10.0, ((0, 0), (20, 0), (20, 20), (0, 20)), 0.99)
    unsure = Die(None, 50.0, 10.0, ((40, 0), (60, 0), (60, 20), (40, 20)), 0.4)
    reading = DiceReading((sure, unsure))
    assert reading.values == [3]
    assert reading.unsure == [unsure]


def test_unusable_frames_are_refused_clearly() -> None:
    with pytest.raises(ImageError, match="too small"):
        read_dice(np.zeros((1, 1, 3), np.uint8))
    with pytest.raises(ImageError, match="empty"):
        read_dice(np.zeros((0, 0, 3), np.uint8))


def test_grey_and_non_square_frames_are_read() -> None:
    frame, labels = PHOTOS["IMG_20191208_112246.jpg"]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert len(read_dice(grey).dice) == len(labels)
    wide = cv2.copyMakeBorder(frame, 0, 0, 160, 160, cv2.BORDER_REPLICATE)
    assert_values_fit(read_dice(wide), labels)


def _first_look(face: int) -> np.ndarray:
    """Class probabilities of colour views that are unsure of a die, ``face`` likeliest."""
    p = np.full(7, 0.12)
    p[0], p[face] = 0.0, 0.4
    return p / p.sum()


def test_a_die_with_coloured_pips_is_read_in_colourfulness_only_if_the_looks_agree() -> None:
    """Red pips on a black die are barely lighter than the body; seen by colourfulness
    they are dark pips on a light face, which the classifier reads for sure.  That
    look raises the face share only where the colour views found the same face
    likeliest, and P(not a die) stays the colour views'."""
    frame, labels = PHOTOS["IMG_20191208_112933.jpg"]
    lab = next(lab for lab in labels if lab.face == 4 and lab.y > 400)  # the black die with red pips
    c = Candidate(lab.x, lab.y, lab.size, 0.5)
    face = cut_patch(frame, lab.x, lab.y, lab.size)[8:24, 8:24].astype(int)
    assert np.mean(face[..., 2] - face[..., 1]) > 20 and np.mean(face) < 80  # dark and red
    t = thresholds()

    def seen(face: int, found: list[Candidate]) -> np.ndarray:
        p = np.stack([_first_look(face)] * len(found))
        return vision.dice.faces._in_colourfulness(frame, found, p.copy(), 1.0, 1.0)

    agree, disagree = seen(lab.face, [c])[0], seen(lab.face % 6 + 1, [c])[0]
    assert likeliest_face(agree) == lab.face and face_share(agree) >= t.sure and agree[0] == 0.0
    assert np.array_equal(disagree, _first_look(lab.face % 6 + 1))
    # A weaker peak on the die's edge may be a part of it: it is not seen so.
    part = Candidate(lab.x + 0.3 * lab.size, lab.y, 0.5 * lab.size, 0.2)
    assert np.array_equal(seen(lab.face, [c, part])[1], _first_look(lab.face))


def test_only_faces_with_colours_are_seen_by_colourfulness() -> None:
    """The red-pipped black die has colours to see; the black 4 with white pips in the
    same photo has none (seen by colourfulness it would only be its own grey patch
    again), and neither has the red die in grey."""
    frame, labels = PHOTOS["IMG_20191208_112933.jpg"]
    red = next(lab for lab in labels if lab.face == 4 and lab.y > 400)
    plain = next(lab for lab in labels if lab.face == 4 and lab.y < 400)
    grey = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    seen = lambda f, lab: vision.dice.faces._coloured(f, Candidate(lab.x, lab.y, lab.size, 0.5))  # noqa: E731
    assert seen(frame, red) and not seen(frame, plain) and not seen(grey, red)


def test_a_pip_read_as_a_one_inside_a_die_is_dropped() -> None:
    """A candidate that reads 1 and lies inside the box of one over twice its side is a
    pip of that die; a small 1 beside a big die, or a pip-sized 3 inside it, stays."""
    die = Candidate(100.0, 100.0, 48.0, 0.9)
    one, three = _first_look(1), _first_look(3)
    pip = Candidate(112.0, 90.0, 14.0, 0.2)
    beside = Candidate(140.0, 100.0, 20.0, 0.5)
    kept = [(die, _first_look(6)), (pip, one), (beside, one)]
    assert vision.dice.read._a_pip(pip, one, kept)
    assert not vision.dice.read._a_pip(beside, one, kept)
    assert not vision.dice.read._a_pip(pip, three, kept)
    assert not vision.dice.read._a_pip(die, _first_look(6), kept)


def test_the_detector_input_is_what_opencv_would_make() -> None:
    """The detector's input is built by hand for speed (``_blob``); it must be exactly
    the blob ``cv2.dnn.blobFromImage`` makes, which the nets were checked with."""
    frame, _ = PHOTOS["IMG_20191208_111328.jpg"]
    for image in (frame, frame[13:301, 7:200]):
        assert np.array_equal(vision.dice.find._blob(image), cv2.dnn.blobFromImage(image))


def test_large_images_shrink_by_halving_as_one_area_resize_would() -> None:
    """``halved`` works in bands of rows for memory; it must give exactly what halving
    the whole image does.  ``shrunk`` (halvings, then one last resize) must stay close
    to a single area resize and report the scale it really shrank by."""
    frame, _ = PHOTOS["IMG_20191208_111328.jpg"]
    large = cv2.resize(frame, (2403, 2001), interpolation=cv2.INTER_LINEAR)
    whole = large[:2000, :2400]
    for _ in range(3):
        whole = cv2.resize(whole, (whole.shape[1] // 2, whole.shape[0] // 2), interpolation=cv2.INTER_AREA)
    assert np.array_equal(halved(large, 3), whole)
    small, sx, sy = shrunk(large, 320, 272)
    direct = cv2.resize(large, (320, 272), interpolation=cv2.INTER_AREA)
    assert small.shape == direct.shape
    assert np.abs(small.astype(int) - direct).mean() < 2.0
    assert (sx, sy) == (2402 / 320, 2000 / 272)  # halved once: the odd last column dropped


def test_an_unsure_die_just_off_a_sure_ones_centre_is_dropped() -> None:
    """An unsure die within a quarter of a sure die's side from its centre is that die
    seen off-centre; one further off, or near an unsure die only, stays."""
    read = vision.dice.read
    die = lambda v, x, y, s: read.Die(v, x, y, read.box_corners(Candidate(x, y, s, 0.5)), 0.9)  # noqa: E731
    sure = die(4, 100.0, 100.0, 48.0)
    echo, apart = die(None, 108.0, 110.0, 30.0), die(None, 100.0, 140.0, 30.0)
    other = die(None, 300.0, 300.0, 48.0)
    near_unsure = die(None, 305.0, 305.0, 30.0)
    dice = [sure, echo, apart, other, near_unsure]
    assert read._off_centre(echo, dice)
    assert not read._off_centre(apart, dice)
    assert not read._off_centre(sure, dice)
    assert not read._off_centre(near_unsure, dice)
    assert not read._off_centre(die(3, 108.0, 110.0, 30.0), dice)


def test_a_small_die_needs_a_surer_face_to_be_read() -> None:
    """The same class probabilities read a die of the tray's size and leave one only a
    dozen pixels across unsure: a small die is held to ``sure_small``
    (``Thresholds.sure_for``), picked on the held-out photos."""
    t = thresholds()
    assert 0 < t.small and t.sure < t.sure_small
    share = (t.sure + t.sure_small) / 2
    p = np.full(7, (1.0 - share) / 5)
    p[0], p[3] = 0.0, share
    assert decide(Candidate(100.0, 100.0, 40.0, 0.9), p, t) == Die(
        3, 100.0, 100.0, vision.dice.read.box_corners(Candidate(100.0, 100.0, 40.0, 0.9)), pytest.approx(share)
    )
    small = decide(Candidate(100.0, 100.0, t.small - 1, 0.9), p, t)
    assert small is not None and small.value is None
