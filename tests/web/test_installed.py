"""The box as ``sudo make install`` leaves it: the package built into a wheel and installed
from it (not the checkout), serving German pages to a German table.

Offline: the wheel is built without build isolation from this environment's setuptools
and Babel, and installed by unpacking it, so no package index is needed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import setuptools

from support import ROOT

PAGE = """
import json, sys
from pathlib import Path
import web
from device.store import Store
from device.table_service import TableService
from web import create_app

service = TableService(Store(Path(sys.argv[1]) / "table.db"), language="de")
page = create_app(service, public_url="http://familiar.test:8080").test_client().get("/")
print(json.dumps({"web": web.__file__, "status": page.status_code, "html": page.get_data(as_text=True)}))
"""
"""The join page of a German table, from whatever ``web`` package Python imports."""


def checkout_files() -> list[str]:
    """The files a clone of this checkout would have (tracked, plus new ones not ignored)."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [name for name in listed if (ROOT / name).is_file()]


def build_wheel(folder: Path) -> Path:
    """The wheel pip builds from a copy of the checkout (so the build writes nothing here)."""
    source = folder / "src"
    for name in checkout_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", str(source)]
        + ["-w", str(folder / "dist")],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return next((folder / "dist").glob("familiar-*.whl"))


@pytest.mark.slow
@pytest.mark.skipif(
    tuple(int(p) for p in setuptools.__version__.split(".")[:2]) < (70, 1),
    reason="building a wheel offline needs setuptools 70.1 or later (the test extra)",
)
def test_the_installed_package_serves_german_pages(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "site")
    assert "web/translations/de/LC_MESSAGES/messages.mo" in names  # Flask-Babel reads only .mo files
    assert {name for name in names if name.endswith(".mo")} == {
        name[:-3] + ".mo" for name in names if name.endswith(".po")
    }
    done = subprocess.run(
        [sys.executable, "-c", PAGE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout
        env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout.splitlines()[-1])
    assert Path(page["web"]).is_relative_to(tmp_path / "site")  # the installed copy, not the checkout
    assert page["status"] == 200
    assert '<html lang="de">' in page["html"] and "Am Tisch einsteigen" in page["html"]
    assert "Join the table" not in page["html"]
