"""Bad input on the command line: every command of ``familiar`` (and ``python -m
web.catalogs``) under generated arguments: malformed, oversized, wrong-typed, non-ASCII
digits and names, missing and damaged files.  Whatever the arguments, the command ends
with an exit status (0 done, 1 a problem it reported, 2 a bad command line), a refusal
says why, no traceback is shown, and a refused command leaves the state directory (taught
dice, card catalogs, the log) and the message catalogs exactly as they were.

The commands run in-process, for speed, with the two that would serve (``run``,
``demo``) and the hardware check (``doctor``) stopped where they would start; a few run as
real processes at the end, from parsing to exit."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device import cli
from engine.games import registry
from support import ROOT
from web import catalogs

DICE_PHOTO = ROOT / "tests/data/dice/IMG_20191208_111328.jpg"
CWD = ROOT
"""Where the in-process commands run: a relative path lands in the workspace (set below)."""
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _png(width: int, height: int, pixels: bytes | None = None) -> bytes:
    """A PNG whose header claims ``width`` x ``height``; real pixels only when given."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    body = zlib.compress(pixels if pixels is not None else b"\0" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


class Workspace:
    """A state directory with files of every kind a command may be handed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.state = root / "state"
        (self.state / "dice").mkdir(parents=True)
        self.files = root / "files"
        self.files.mkdir()
        tiny = b"".join(b"\0" + bytes([120, 80, 40]) * 32 for _ in range(32))
        made = {
            "empty.png": b"",
            "noise.jpg": bytes(range(256)) * 8,
            "text.png": "not a picture, \u00e9\u0663".encode(),
            "huge.png": _png(100_000, 100_000),
            "tiny.png": _png(4, 4, b"".join(b"\0" + b"\x10" * 12 for _ in range(4))),
            "flat.png": _png(32, 32, tiny),
            "bad.toml": b"[web\nport = ",
            "latin1.toml": "[box]\nlanguage = '\xe9'\n".encode("latin-1"),
            "catalog.json": b"{not json",
        }
        for name, data in made.items():
            (self.files / name).write_bytes(data)
        (self.files / "folder.png").mkdir()
        (self.files / "broken-catalog").mkdir()
        (self.files / "broken-catalog" / "catalog.json").write_bytes(b"[1, 2")
        self.photos = [str(self.files / n) for n in made] + [
            str(self.files / "folder.png"),
            str(self.files / "missing.png"),
            str(self.files / "\u0663\u00e9\u6f22.png"),
            str(DICE_PHOTO),
            "",
            "-",
        ]

    def snapshot(self) -> dict[str, str]:
        """Every file and folder under the workspace and the message catalogs, by content."""
        places = [self.root, catalogs.TRANSLATIONS]
        return {str(p): _digest(p) for place in places for p in sorted(place.rglob("*"))}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    global CWD
    made = Workspace(tmp_path_factory.mktemp("cli"))
    CWD = made.root
    yield made
    CWD = ROOT


# What a generated argument may be: junk of every sort, and words each command knows.
TEXT = st.characters(blacklist_characters="\0")
"""Any character a shell can pass (lone surrogates stand for bytes that are not UTF-8)."""
junk = st.one_of(
    st.text(TEXT, max_size=12),
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=6),  # non-ASCII digits
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["0", "-1", "65536", "1e9", "nan", "3x3", "0x3", "99x99", "x", ",", "..", "../..", "a" * 300]),
    st.sampled_from(["--", "-", "--json", "--help", "-v", "--state-dir", "--die", "--face", "--catalog", "--port"]),
)
NAMES = ["clue", "dark-mark", "../evil", "a" * 65, ".hidden", "d\u00e9", "a,b,,c", "{}", "[1]", '{"x": 1}']


def values(space: Workspace) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(space.photos), st.sampled_from(NAMES), junk)


def command_lines(space: Workspace) -> st.SearchStrategy[list[str]]:
    """A command and options, each option with a value that may be anything."""
    v = values(space)
    state = ["--state-dir", str(space.state)]
    options: dict[tuple[str, ...], list[str]] = {
        ("vision", "dice"): ["--json", "--die", "--state-dir"],
        ("vision", "teach-die"): ["--die", "--face", "--state-dir"],
        ("vision", "enroll"): ["--catalog", "--name", "--grid", "--names", "--data"],
        ("vision", "cards"): ["--catalog", "--json"],
        ("demo",): ["--port", "--state", "--game", "--players", "--no-bots"],
        ("run",): [],
        ("doctor",): [],
    }

    numbers = st.one_of(st.integers(-10, 70_000).map(str), junk)
    special = {
        "--port": numbers,
        "--players": numbers,
        "--game": st.one_of(st.sampled_from([*registry(), "Dice", "nonsense", ""]), junk),
        "--grid": st.one_of(st.tuples(numbers, numbers).map("x".join), junk),
        "--state": st.sampled_from([str(space.state), "relative"]),
    }

    @st.composite
    def build(draw: Callable[..., Any]) -> list[str]:
        command = draw(st.sampled_from(sorted(options)))
        argv = [*draw(st.lists(st.sampled_from(["--config", "-v"]), max_size=1)), *command]
        if argv[0] == "--config":
            argv.insert(1, draw(st.one_of(v, st.sampled_from([str(space.files / "bad.toml")]))))
        for option in draw(st.lists(st.sampled_from(options[command] or ["--help"]), max_size=5)):
            argv.append(option)
            if option not in ("--json", "--no-bots", "--help") or draw(st.booleans()):
                argv.append(draw(special.get(option, v)))
        if command[0] == "vision":
            argv += state if draw(st.booleans()) else []
            argv += draw(st.lists(st.one_of(st.sampled_from(space.photos), junk), max_size=3))
        return argv

    return build()


def run_in_process(main: Callable[[list[str]], int], argv: list[str]) -> tuple[int, str]:
    """Exit status and everything printed, as the shell would see them."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), contextlib.chdir(CWD):
        try:
            status = main(argv)
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 2)
    return status, out.getvalue()


@contextlib.contextmanager
def nothing_served() -> Iterator[list[Any]]:
    """``run`` and ``demo`` stop where the daemon would start, ``doctor`` before it probes
    the hardware: what they would have started is recorded instead."""
    started: list[Any] = []

    def serve(config: Any, first_game: Any = None, bots: bool = False) -> int:
        """What is started must be startable: a port to listen on, a game the box knows."""
        assert 1 <= config.web.port <= 65535, config.web.port
        assert first_game is None or first_game[0] in registry(), first_game
        started.append((config, first_game))
        return 0

    with (
        mock.patch.object(cli, "_serve", serve),
        mock.patch("device.doctor.run_doctor", lambda config: started.append(config) or 0),
        mock.patch("tempfile.mkdtemp", lambda prefix="": started.append(prefix) or "/nonexistent/demo"),
        mock.patch.dict(os.environ, {"FAMILIAR_STATE_DIR": ""}),
    ):
        yield started


def assert_clean(status: int, printed: str, before: dict[str, str], after: dict[str, str]) -> None:
    assert status in (0, 1, 2), f"exit status {status!r}"
    assert "Traceback" not in printed, printed
    if status != 0:
        assert printed.strip(), "a refusal must say why"
        changed = sorted(set(before.items()) ^ set(after.items()))
        assert not changed, f"a refused command changed {changed[:3]}"


def test_every_familiar_command_refuses_bad_arguments_cleanly(space: Workspace) -> None:
    @FUZZ
    @given(argv=command_lines(space))
    def check(argv: list[str]) -> None:
        before = space.snapshot()
        with nothing_served():
            status, printed = run_in_process(cli.main, argv)
        assert_clean(status, printed, before, space.snapshot())

    check()


def test_a_bad_port_or_game_is_refused_before_the_box_starts(space: Workspace) -> None:
    """These used to reach the daemon: a traceback from the web server or the table,
    after the state directory had been made."""
    for argv in (
        ["demo", "--port", "70000"],
        ["demo", "--port", "-5"],
        ["demo", "--port", "\u0668\u0660"],
        ["demo", "--game", "nonsense"],
        ["--config", str(space.files / "bad.toml"), "demo"],
        ["--config", str(space.files / "latin1.toml"), "run"],
    ):
        with nothing_served() as started:
            status, printed = run_in_process(cli.main, argv)
        assert status == 2 and started == [], (argv, printed)
        assert "Traceback" not in printed and printed.strip()


def test_a_die_name_cannot_leave_the_state_directory(space: Workspace) -> None:
    """``teach-die --die ../../x`` used to write its model outside the state directory."""
    outside = space.root / "evil"
    argv = ["vision", "teach-die", "--die", "../../evil", "--face", "a", "--state-dir", str(space.state)]
    status, printed = run_in_process(cli.main, [*argv, str(DICE_PHOTO)])
    assert status == 2 and "die name" in printed and not outside.exists()


toml_values = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["true", "false", "nan", "-inf", "1979-05-27", "[]", "{}", "[1, 2, 300]", "{ pins = [4] }"]),
    st.text(TEXT, max_size=20).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=5),
)


@st.composite
def config_texts(draw: Callable[..., Any]) -> str:
    """TOML the box may be given: its own sections and keys with values of every type,
    some unknown names, and now and then a broken line."""
    import dataclasses

    from device.config import SECTIONS

    lines = []
    for section in draw(st.lists(st.sampled_from([*SECTIONS, "nonsense", "lights.bars"]), max_size=3)):
        lines.append(f"[{section}]")
        cls = SECTIONS.get(section)
        keys = [f.name for f in dataclasses.fields(cls)] if cls else ["x"]
        for key in draw(st.lists(st.sampled_from([*keys, "unknown"]), max_size=4, unique=True)):
            lines.append(f"{key} = {draw(toml_values)}")
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.text(TEXT, max_size=15)))
    return "\n".join(lines)


def test_a_configuration_file_is_taken_or_refused_with_its_reason(space: Workspace) -> None:
    config_file = space.files / "fuzz.toml"

    @FUZZ
    @given(text=config_texts())
    def check(text: str) -> None:
        config_file.write_text(text, encoding="utf-8", errors="surrogateescape")
        before = space.snapshot()
        with nothing_served() as started:
            status, printed = run_in_process(cli.main, ["--config", str(config_file), "run"])
        assert_clean(status, printed, before, space.snapshot())
        assert (status == 0) == bool(started)
        if status != 0:
            assert status == 2 and "configuration error" in printed

    check()


def catalog_lines() -> st.SearchStrategy[list[str]]:
    command = st.one_of(st.sampled_from(["update", "compile", "check"]), junk)
    named = st.lists(st.one_of(st.sampled_from(sorted(catalogs.domains())), junk), max_size=2)
    return st.one_of(st.just([]), st.tuples(command, named).map(lambda line: [line[0], *line[1]]))


def test_the_catalog_command_refuses_what_it_does_not_know(space: Workspace) -> None:
    @FUZZ
    @given(argv=catalog_lines())
    def check(argv: list[str]) -> None:
        command, named = (argv[0], argv[1:]) if argv else ("check", [])
        known = command in ("update", "compile", "check") and all(d in catalogs.domains() for d in named)
        if known and not (command == "compile" and named):
            return  # a command it takes: it reads every source file, or rewrites the catalogs
        before = space.snapshot()
        status, printed = run_in_process(catalogs.main, argv)
        assert_clean(status, printed, before, space.snapshot())

    check()


@pytest.mark.parametrize(
    "argv",
    [
        ["-m", "device.cli", "demo", "--port", "70000", "--state", "{state}"],
        ["-m", "device.cli", "demo", "--game", "\u0663", "--state", "{state}"],
        ["-m", "device.cli", "vision", "dice", "--die", "x\u0663/..", "{photo}"],
        ["-m", "device.cli", "vision", "enroll", "--catalog", "{state}/deck", "--grid", "\u0663x\u0663", "{photo}"],
        ["-m", "device.cli", "nonsense"],
        ["-m", "web.catalogs", "check", "\u00e9"],
    ],
)
def test_a_real_process_refuses_with_status_2_and_no_traceback(space: Workspace, argv: list[str]) -> None:
    filled = [a.format(state=space.state, photo=DICE_PHOTO) for a in argv]
    before = space.snapshot()
    done = subprocess.run([sys.executable, *filled], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout and done.stderr.strip()
    assert space.snapshot() == before
