"""The one build step pyproject.toml cannot declare: the message catalogs.

Flask-Babel reads the pages' words only from compiled ``.mo`` files, and the checkout
holds only the ``.po`` sources (``*.mo`` is ignored), so a wheel built from it had no
German pages. ``build_py`` compiles every ``web/translations/*/LC_MESSAGES/*.po`` into
the build tree beside its source, so the wheel carries the ``.mo`` files. An editable
install reads the checkout, where ``make catalogs`` compiles them.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithCatalogs(build_py):
    """setuptools' ``build_py``, then the catalogs compiled into the build tree."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source in sorted(Path("web/translations").glob("*/LC_MESSAGES/*.po")):
            target = Path(self.build_lib) / source.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po:
                catalog = read_po(po, locale=source.parent.parent.name, domain=source.stem)
            with target.open("wb") as mo:
                write_mo(mo, catalog)


setup(cmdclass={"build_py": BuildPyWithCatalogs})
