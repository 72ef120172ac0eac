"""What several test modules share and is not a fixture: scripted tables, test games,
photo loaders, browser helpers.  Fixtures live in the ``conftest.py`` of the room that
uses them (tests/conftest.py for all).  Test modules import from here, never from
each other."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root."""
DATA = ROOT / "tests" / "data"
"""The test photos (each folder says where they come from and their licence)."""
