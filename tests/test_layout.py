"""The packages' one-way data flow, checked on the source: what the box runs imports
neither the training scripts nor the tests, ``vision/`` and ``engine/`` import none of
the other packages, and nothing the box runs reads a file under ``tests/``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support import ROOT

RUNTIME = ("vision", "device", "web", "engine")
MAY_IMPORT = {
    "vision": {"vision"},
    "engine": {"engine"},
    "web": {"web", "engine"},
    "device": {"device", "engine", "vision", "web"},
}
PROJECT = {"vision", "device", "web", "engine", "bench", "training", "tests"}


def imported_packages(path: Path) -> set[str]:
    """The top-level project packages a module imports, lazily or not."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & PROJECT


@pytest.mark.parametrize("package", RUNTIME)
def test_runtime_packages_import_only_downstream(package: str) -> None:
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) - MAY_IMPORT[package])
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert {name: packages for name, packages in wrong.items() if packages} == {}


@pytest.mark.parametrize("package", RUNTIME)
def test_runtime_code_names_no_path_under_tests(package: str) -> None:
    """A path string into tests/ would break a non-editable install, which has none."""
    readers = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and node.value in ("tests", "training"):
                readers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith(("tests/", "training/"))
            ):
                readers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert readers == []
