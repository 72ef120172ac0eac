"""hardware.md against the code: the modules, files and options it names exist, its wiring
table is the default pin map on the right header pins, and its example pins are free."""

from __future__ import annotations

import dataclasses
import importlib
import re
import tomllib
from pathlib import Path

import pytest

from device.config import SECTIONS, Config, load_config
from support import ROOT

DOC = (ROOT / "hardware.md").read_text()
PACKAGES = ("vision", "device", "web", "engine")
MODULE = rf"(?:{'|'.join(PACKAGES)})(?:\.\w+)+"
"""A dotted name in one of the box's packages."""
HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33, 19: 35,
    26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
"""BCM GPIO -> physical pin of the 40-pin header (every Pi since the B+)."""
I2S_PINS = {18, 19, 20, 21}
"""What the I2S interface takes when the MAX98357A overlay is on (PCM CLK, FS, DIN, DOUT)."""


def quoted() -> set[str]:
    return set(re.findall(r"`([^`\s]+)`", DOC))


def is_option(name: str) -> bool:
    """``section.option`` of the configuration file (``vision.areas`` is one, not a module)."""
    section, _, option = name.partition(".")
    return section in SECTIONS and option in {field.name for field in dataclasses.fields(SECTIONS[section])}


def test_every_module_it_names_exists() -> None:
    names = sorted(name for name in quoted() if re.fullmatch(MODULE, name) and not is_option(name))
    assert names  # e.g. vision.camera.pi.full_view_mode
    for name in names:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):  # the longest importable module, then attributes
            try:
                found = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attribute in parts[cut:]:
                assert hasattr(found, attribute), name
                found = getattr(found, attribute)
            break
        else:
            pytest.fail(f"{name} is not a module")


def test_every_file_of_the_project_it_names_exists() -> None:
    files = sorted(name for name in quoted() if re.fullmatch(r"[\w-]+(?:/[\w.-]+)+", name))
    assert "device/strip.py" in files
    assert [name for name in files if not (ROOT / name).exists()] == []


def test_every_option_it_names_is_an_option() -> None:
    options = sorted(
        name for name in quoted() if re.fullmatch(r"[a-z]+\.[a-z_]+", name) and name.split(".")[0] in SECTIONS
    )
    assert "audio.device" in options
    assert [name for name in options if not is_option(name)] == []


def wiring_rows() -> list[tuple[int, int, str]]:
    """(BCM, physical pin, part) of the wiring table's rows that name one pin of each."""
    table = DOC[DOC.index("## Wiring table") : DOC.index("**Why these pins.**")]
    return [
        (int(bcm), int(phys), part.strip())
        for bcm, phys, part in re.findall(r"^\| (\d+)\s*\| (\d+)\s*\| ([^|]+)\|", table, re.M)
    ]


def test_the_wiring_table_is_the_default_pin_map_on_the_right_header_pins() -> None:
    rows = wiring_rows()
    assert all(HEADER[bcm] == phys for bcm, phys, _ in rows), rows
    config = Config()
    track = [bcm for bcm, _, part in rows if part.startswith("track LED")]
    assert track == list(config.lights.bars["threat"].pins)
    named = {part.split()[0]: bcm for bcm, _, part in rows if not part.startswith(("track", "*"))}
    assert named == {"status": config.gpio.status_pin, "confirm": config.gpio.confirm_pin, "undo": config.gpio.undo_pin}
    amp = {bcm for bcm, _, part in rows if part.startswith("*I2S amp*")}
    assert amp == {18, 19, 21} and not amp & {pin for _, pin in config.pin_claims()}


def test_its_configuration_examples_load_and_their_pins_are_free() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", DOC, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        assert tomllib.loads(block)
    defaults = {pin for _, pin in Config().pin_claims()}
    examples = re.findall(r"(\w+) = \{ pins = \[([\d, ]+)\]", DOC)
    assert len(examples) >= 2
    for name, listed in examples:
        pins = [int(pin) for pin in listed.split(",")]
        if name == "threat":
            assert pins == list(Config().lights.bars["threat"].pins)
        else:  # a further bar: on pins the default box and the amp leave free
            assert not set(pins) & (defaults | I2S_PINS), (name, pins)


def test_the_bar_example_loads_beside_the_default_map(tmp_path: Path) -> None:
    """The doc's [lights.bars] block with its commented "more bars" example taken in."""
    block = next(b for b in re.findall(r"```toml\n(.*?)```", DOC, re.S) if b.startswith("[lights.bars]"))
    extra = re.search(r"(turn = \{ pins = \[[\d, ]+\], colour = \"#\w+\" \})", block)
    assert extra
    path = tmp_path / "familiar.toml"
    path.write_text(f"{block}{extra.group(1)}\n")
    config = load_config(path)
    assert set(config.lights.bars) == {"threat", "turn"}
