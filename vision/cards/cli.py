"""``familiar vision enroll`` and ``familiar vision cards``: teach a deck, read cards.

    familiar vision enroll --catalog DIR --name NAME IMAGE
    familiar vision enroll --catalog DIR --grid 3x3 --names a,b,c,d,e,f,g,h,i IMAGE
    familiar vision cards --catalog DIR [--json] IMAGE...

``cards --json`` prints one object per image per line:
``{"image": ..., "cards": [{"card": name|null, "corners": [[x,y]x4], "confidence": c}], "ms": t}``.
Exit status: 0 success, 1 some image could not be read, 2 bad usage or catalog problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from vision.cli import print_records, read_batch
from vision.images import ImageError, load_image

USAGE_ERROR = 2


def _grid(text: str) -> tuple[int, int]:
    """'3x3' -> (3, 3) for argparse."""
    try:
        rows, cols = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"grid must look like 3x3, got {text!r}") from None
    if rows < 1 or cols < 1:
        raise argparse.ArgumentTypeError(f"grid must be at least 1x1, got {text!r}")
    return rows, cols


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return USAGE_ERROR


def enroll_command(args: argparse.Namespace) -> int:
    """Teach one card (--name) or a grid of cards (--grid, --names) from one photo."""
    if (args.name is None) == (args.grid is None):
        return _fail("give either --name NAME (one card) or --grid RxC --names a,b,... (a grid)")
    if args.grid is not None and args.names is None:
        return _fail("--grid needs --names, row-major and comma-separated")
    from vision.cards import Catalog, CatalogError  # not at import: the box's command line loads this module

    try:
        data = json.loads(args.data) if args.data else None
        frame = load_image(Path(args.image))
        catalog = Catalog(Path(args.catalog))
        if args.name is not None:
            catalog.enroll(frame, args.name, data)
            names = [args.name.strip()]
        else:
            names = [n.strip() for n in args.names.split(",")]
            catalog.enroll_grid(frame, *args.grid, names, data)
    except json.JSONDecodeError as exc:
        return _fail(f"--data is not valid JSON: {exc}")
    except (CatalogError, ImageError) as exc:
        return _fail(str(exc))
    print(
        f"enrolled {len(names)} card{'s' if len(names) != 1 else ''} into {args.catalog} ({len(catalog)} in the deck)"
    )
    return 0


def _describe(record: dict[str, Any]) -> str:
    """Human one-liner for a reading."""
    cards = record["cards"]
    if not cards:
        return "no cards"
    return ", ".join(f"{c['card'] or 'unknown'} ({c['confidence']:.2f})" for c in cards)


def cards_command(args: argparse.Namespace) -> int:
    """Read the cards in each image against the catalog."""
    from vision.cards import Catalog, CatalogError, read_cards

    directory = Path(args.catalog)
    if not (directory / "catalog.json").exists():
        return _fail(f"{directory} is not a catalog (no catalog.json); teach it with 'familiar vision enroll'")
    try:
        catalog = Catalog(directory)
        if len(catalog) == 0:
            return _fail(f"catalog {directory} is empty: teach it some cards first")
        catalog.vectors()  # describe the deck before timing the first photo
    except CatalogError as exc:
        return _fail(str(exc))
    reader = lambda frame: {"cards": [card.to_json() for card in read_cards(frame, catalog)]}  # noqa: E731
    return print_records(read_batch(reader, args.images), args.json, _describe)


def add_parsers(commands: argparse._SubParsersAction) -> None:
    """Register ``enroll`` and ``cards`` under ``familiar vision``."""
    enroll = commands.add_parser("enroll", help="teach the box cards from a photo")
    enroll.add_argument("--catalog", required=True, help="deck folder (created if missing)")
    enroll.add_argument("--name", help="name of the one card in the photo")
    enroll.add_argument("--grid", type=_grid, help="layout of the cards, rows x columns, e.g. 3x3")
    enroll.add_argument("--names", help="comma-separated names of the grid's cards, row by row")
    enroll.add_argument("--data", help="per-card game data as JSON: an object (one card) or a list (grid)")
    enroll.add_argument("image", help="photo of the card(s)")
    enroll.set_defaults(func=enroll_command)

    cards = commands.add_parser("cards", help="name the cards in photos")
    cards.add_argument("--catalog", required=True, help="deck folder made by 'enroll'")
    cards.add_argument("--json", action="store_true", help="one JSON object per image per line")
    cards.add_argument("images", nargs="+", help="photos to read")
    cards.set_defaults(func=cards_command)
