"""The ``familiar`` command: run the box, run the demo, check the hardware, read photos."""
from __future__ import annotations

import argparse
import sys

from vision import cli as vision_cli


def build_parser() -> argparse.ArgumentParser:
    """The whole command line; each part of the box registers its own sub-commands."""
    parser = argparse.ArgumentParser(prog="familiar", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    vision_cli.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
