"""The ``familiar vision ...`` commands: the stable, scriptable contract of the readers.

Every reading command takes many images and prints one JSON object per line per
image, so that other tools can stream it.  One bad image (missing, corrupt, empty,
absurdly large) gives an ``"error"`` for that image only: the rest of the batch runs.
``ms`` is the reading time of that image, excluding file decoding, because decoding
cost belongs to the file format and not to the reader.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from vision.images import ImageError, load_image

Reader = Callable[[Any], dict[str, Any]]
"""A reader takes a BGR frame and returns the JSON fields of its reading."""


def read_batch(reader: Reader, paths: Iterable[str]) -> Iterable[dict[str, Any]]:
    """Read each image with ``reader``; yield one JSON-ready record per image."""
    for path in paths:
        record: dict[str, Any] = {"image": path}
        try:
            frame = load_image(Path(path))
            start = time.perf_counter()
            record.update(reader(frame))
            record["ms"] = round((time.perf_counter() - start) * 1000.0, 2)
        except ImageError as exc:
            record["error"] = str(exc)
        yield record


def print_records(records: Iterable[dict[str, Any]], as_json: bool, describe: Callable[[dict[str, Any]], str]) -> int:
    """Print records as JSON lines or as human text; exit status 1 if any failed."""
    status = 0
    for record in records:
        if "error" in record:
            status = 1
        if as_json:
            print(json.dumps(record), flush=True)
        elif "error" in record:
            print(f"{record['image']}: error: {record['error']}", file=sys.stderr)
        else:
            print(f"{record['image']}: {describe(record)}  ({record['ms']:.1f} ms)")
    return status


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``vision`` and its sub-commands on the ``familiar`` command line."""
    vision = subparsers.add_parser("vision", help="read dice and cards from photos")
    commands = vision.add_subparsers(dest="vision_command", required=True)
    from vision.cards import cli as cards_cli  # each reader owns its own sub-commands
    from vision.dice import cli as dice_cli

    dice_cli.add_parsers(commands)
    cards_cli.add_parsers(commands)
