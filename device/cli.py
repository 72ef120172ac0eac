"""The ``familiar`` command: run the box, run the demo, check the hardware, read photos.

Exit status (device/exit_status.py): 0 fine, 1 a problem the box reported (a failed check), 2 a bad command
line or configuration file, 6 a set-up error of the machine (a state directory that
cannot be written, GPIO pins that cannot be used, an address the pages cannot be served
on).  systemd restarts the box on neither 2 nor 6 (``RestartPreventExitStatus`` in
systemd/familiar.service): a restart every 5 s cannot fix them and would only hide the
message, which ``systemctl status familiar`` shows.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from device import (
    exit_status,
    memory,  # first: it sets OpenBLAS's threads before numpy loads
)
from device.config import Config, ConfigError, load_config
from vision import cli as vision_cli  # noqa

if TYPE_CHECKING:
    pass

DEMO_PHOTOS = Path(__file__).resolve().parent / "demo_tray"
"""Real tray photos shipped as package data (see its README.md)."""
DEMO_ROLLS = DEMO_PHOTOS / "rolls"
"""The demo's camera: real trays of one to six dice, thrown when the table waits for a roll."""
DEMO_NAMES = ("Harry", "Hermione", "Ron", "Ginny", "Neville", "Luna", "Fred", "George")


def _config(args: argparse.Namespace) -> Config:
    return load_config(Path(args.config) if args.config else None)


def demo_config(base: Config, state_dir: Path, port: int) -> Config:
    """The demo's variant of a configuration: simulated pins, replayed photos, loopback web."""
    return dataclasses.replace(
        base,
        box=dataclasses.replace(base.box, simulate=True, state_dir=state_dir),
        camera=dataclasses.replace(base.camera, source=f"thrown:{DEMO_ROLLS}", fps=10),
        web=dataclasses.replace(base.web, host="127.0.0.1", port=port, public_url=""),
    )


def _serve(config: Config, first_game: tuple[str, list[str], dict] | None = None, bots: bool = False) -> int:
    """Build the daemon (the slow imports live there) and run it until SIGTERM/SIGINT."""
    from device.daemon import Daemon
    from device.outputs import HardwareError
    from device.store import StorageError
    from engine.actions import Action
    from web.serve import ServeError

    os.umask(0o077)  # the log (with its seeds, hence every secret) and WAL files are the box's alone
    memory.limit_malloc_arenas()  # before the daemon's threads start
    try:
        daemon = Daemon(config)
    except (HardwareError, StorageError) as exc:
        return _setup_error(config, exc)
    signal.signal(signal.SIGTERM, lambda *_: daemon.stopping.set())
    signal.signal(signal.SIGINT, lambda *_: daemon.stopping.set())

    def first_table() -> None:
        """The demo's opening table (not on a restart, which resumes the saved one)."""
        if first_game and daemon.service.table.game is None:
            game, seats, options = first_game
            daemon.service.submit(Action("table.new", {"game": game, "seats": seats, "options": options}))
        if bots:
            from device.demo_players import SimulatedPlayers

            SimulatedPlayers(daemon.service, roll=daemon.throw_dice)

    print(
        f"familiar: host page http://{config.web.host}:{config.web.port}/host  "
        f"virtual board /board  state {config.box.state_dir}",
        flush=True,
    )
    try:
        return daemon.run(after_start=first_table)
    except ServeError as exc:
        daemon.close()
        return _setup_error(config, exc)


def _setup_error(config: Config, error: Exception) -> int:
    """Says in the journal what is wrong with the machine and how to fix it (for a GPIO pin:
    which pin and what holds it), and exits with the status the unit does not restart:
    retrying every few seconds cannot free a pin, a port or a read-only folder."""
    from device.doctor import gpio_setup_fix
    from device.outputs import HardwareError

    print(f"familiar: set-up error: {error}", file=sys.stderr)
    if isinstance(error, HardwareError):
        print(f"familiar: fix: {gpio_setup_fix(config, error)}", file=sys.stderr)
    print(
        f"familiar: not restarting (exit status {exit_status.SETUP_ERROR}); check with `familiar doctor`, "
        "then: sudo systemctl restart familiar",
        file=sys.stderr,
        flush=True,
    )
    return exit_status.SETUP_ERROR


def cmd_run(args: argparse.Namespace) -> int:
    return _serve(_config(args))


def cmd_demo(args: argparse.Namespace) -> int:
    from engine import table  # checked here, not by argparse: it is a slow import

    registry = table.registry  # the games the daemon's table will know
    if args.game not in registry():
        known = ", ".join(sorted(registry()))
        print(f"familiar demo: unknown game {args.game[:40]!r}; known: {known}", file=sys.stderr)
        return exit_status.CONFIG_ERROR
    game = registry()[args.game]
    if not game.min_seats <= args.players <= game.max_seats:
        # Refused here, with the game's own range: the opening table would be refused later.
        print(
            f"familiar demo: {args.game} is for {game.min_seats} to {game.max_seats} players, not {args.players}",
            file=sys.stderr,
        )
        return exit_status.CONFIG_ERROR
    base = _config(args)  # a bad file is refused before a state directory is made
    state = Path(args.state) if args.state else Path(tempfile.mkdtemp(prefix="familiar-demo-"))
    config = demo_config(base, state, args.port)
    seats = list(DEMO_NAMES[: args.players])
    return _serve(config, (args.game, seats, demo_options(args.game)), bots=not args.no_bots)


def demo_options(game: str) -> dict[str, Any]:
    """The demo's set-up options for its opening game.  The demo has no printed board:
    Clue's virtual one is given the example wheel layout, so the box counts every wheel
    itself and never asks whether the Dark Mark shows (a real board's host enters their
    board's layout once, and the box keeps it)."""
    if game == "clue":
        from engine.games.clue_wheels import WHEELS_EXAMPLE

        return {"wheels": WHEELS_EXAMPLE}
    return {}


def cmd_doctor(args: argparse.Namespace) -> int:
    from device.doctor import run_doctor

    return run_doctor(_config(args))


def port(text: str) -> int:
    """A TCP port for argparse: ASCII digits, 1 to 65535 (the web server would otherwise
    fail with a traceback after the state directory was made)."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text[:20]!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line; each part of the box registers its own sub-commands."""
    parser = argparse.ArgumentParser(prog="familiar", description="A Raspberry Pi box for board games at a real table.")
    parser.add_argument("--config", help="configuration file (default /etc/familiar/familiar.toml)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="run the box (the systemd service runs this)").set_defaults(func=cmd_run)
    demo = commands.add_parser("demo", help="run the box on simulated hardware over replayed dice photos")
    demo.add_argument("--port", type=port, default=8080)
    demo.add_argument("--state", help="state directory (default: a new temporary one)")
    demo.add_argument("--game", default="dice", help="game to start with (dice, clue, deal, kampf, unmask, voldemort)")
    demo.add_argument("--players", type=int, default=5, choices=range(1, len(DEMO_NAMES) + 1), metavar="N")
    demo.add_argument("--no-bots", action="store_true", help="do not play the seats that have no phone")
    demo.set_defaults(func=cmd_demo)
    commands.add_parser("doctor", help="check camera, GPIO, audio, speech, disk and port").set_defaults(func=cmd_doctor)
    vision_cli.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:
        print(f"familiar: configuration error: {exc}", file=sys.stderr)
        return exit_status.CONFIG_ERROR


if __name__ == "__main__":
    sys.exit(main())
