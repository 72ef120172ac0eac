"""``familiar vision dice`` and ``familiar vision teach-die``: the dice reader from the shell.

``dice`` prints one line (or JSON object) per image, see ``vision.cli`` for the batch
contract.  ``teach-die`` stores a symbol die's face in ``<state-dir>/dice/<NAME>/``
(the same model the host page's "Teach a die" builds); ``dice --die NAME`` then reads
that die together with pipped dice.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from vision.cli import print_records, read_batch
from vision.images import ImageError, load_image


def default_state_dir() -> Path:
    """Where taught dice live: $FAMILIAR_STATE_DIR, else ./state (the daemon's working
    directory under systemd is its state directory)."""
    return Path(os.environ.get("FAMILIAR_STATE_DIR", "state"))


def add_parsers(commands: argparse._SubParsersAction) -> None:
    """Register ``dice`` and ``teach-die`` under ``familiar vision``."""
    dice = commands.add_parser("dice", help="read the dice in photos")
    dice.add_argument("--json", action="store_true", help="one JSON object per line per image")
    dice.add_argument(
        "--die", action="append", default=[], metavar="NAME", help="also read this taught die (repeatable)"
    )
    dice.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="state directory holding taught dice (default $FAMILIAR_STATE_DIR or ./state)",
    )
    dice.add_argument("images", nargs="+", metavar="IMAGE")
    dice.set_defaults(func=run_dice)

    teach = commands.add_parser(
        "teach-die", help="teach one face of a symbol die from photos of it alone in the tray (3-5 a face)"
    )
    teach.add_argument("--die", required=True, metavar="NAME", help="the die's name, e.g. clue")
    teach.add_argument("--face", required=True, metavar="FACE", help="the face shown in these photos, e.g. dark-mark")
    teach.add_argument("--state-dir", type=Path, default=None)
    teach.add_argument("images", nargs="+", metavar="IMAGE", help="photos each showing only this die, this face up")
    teach.set_defaults(func=run_teach)


def describe(record: dict[str, Any]) -> str:
    """Human summary of one reading: values in reading order, '?' for unsure dice."""
    dice = record["dice"]
    values = [str(d["value"]) if d["value"] is not None else "?" for d in dice]
    unsure = values.count("?")
    text = f"{len(dice)} dice: {' '.join(values)}" if dice else "no dice"
    return text + (f" ({unsure} unsure)" if unsure else "")


def run_dice(args: argparse.Namespace) -> int:
    """Read every image; exit status 1 if any image could not be read."""
    from vision.dice import read_dice
    from vision.dice.taught import TaughtDice

    taught = None
    if args.die:
        try:
            taught = TaughtDice.load((args.state_dir or default_state_dir()) / "dice", args.die)
        except (FileNotFoundError, ValueError) as exc:
            print(f"familiar vision dice: {exc}", file=sys.stderr)
            return 2

    def reader(frame: Any) -> dict[str, Any]:
        return read_dice(frame, taught).to_json()

    return print_records(read_batch(reader, args.images), args.json, describe)


def run_teach(args: argparse.Namespace) -> int:
    """Teach one face from the given photos; nothing is stored unless all are usable."""
    from vision.dice.taught import FACES_PER_DIE, check_name, teach_die

    try:
        directory = (args.state_dir or default_state_dir()) / "dice" / check_name("die", args.die)
        check_name("face", args.face)
    except ValueError as exc:  # checked first: a name is a path, and ../ would leave the state directory
        print(f"familiar vision teach-die: {exc}", file=sys.stderr)
        return 2
    try:
        frames = [load_image(Path(p)) for p in args.images]
        die = teach_die(directory, args.face, frames)
    except (ImageError, ValueError) as exc:
        print(f"familiar vision teach-die: {exc}", file=sys.stderr)
        return 1
    print(f"{die.name}: taught face {args.face!r} from {len(frames)} photo(s); faces so far: {', '.join(die.faces)}")
    if len(die.faces) < FACES_PER_DIE:
        print(f"{die.name} is read as unsure until all {FACES_PER_DIE} faces are taught")
    return 0
