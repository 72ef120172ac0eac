"""Bad input at the HTTP edge: web/openapi.yaml describes exactly the app's JSON routes,
and schemathesis fuzzes every one of them (valid and invalid bodies, paths, headers) as
an unauthenticated client, as a seated phone and as the host, against a box playing a
real game: never a 5xx, never a traceback, never a change on a refused request."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from engine.table import NEW
from support import ROOT
from web import create_app
from web.security import HOST_COOKIE, SEAT_COOKIE

SPEC = ROOT / "web" / "openapi.yaml"
STREAMING = {"/api/events"}
"""An endless event stream: its one answer is checked in test_secret_leaks_http."""
EXAMPLES = int(os.environ.get("FAMILIAR_FUZZ_EXAMPLES", "20"))

schema = schemathesis.openapi.from_path(SPEC)
schema.config.generation.update(modes=["positive", "negative"], max_examples=EXAMPLES)


def described_routes() -> set[tuple[str, str]]:
    paths = yaml.safe_load(SPEC.read_text())["paths"]
    return {(method.upper(), re.sub(r"\{(\w+)\}", r"<\1>", path)) for path, ops in paths.items() for method in ops}


def app_routes(app) -> set[tuple[str, str]]:
    return {
        (method, re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }


class Box:
    """A box playing Secret Voldemort, with its host's and seat 0's cookies."""

    def __init__(self, folder: Path) -> None:
        self.service = TableService(Store(folder / "table.db"))
        self.app = create_app(self.service)
        self.service.submit(Action(NEW, {"game": "voldemort", "seats": ["Ann", "Bob", "Cat", "Dan", "Eve"]}))
        self.cookies = {
            "anonymous": {},
            "seat": {SEAT_COOKIE: self.service.claim_seat(0, self.service.join_code())},
            "host": {HOST_COOKIE: self.service.claim_host()},
        }

    def snapshot(self) -> tuple:
        db = self.service.store.db
        rows = tuple(
            tuple(db.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall())
            for t in ("log", "claims", "host", "set_aside")
        )
        return rows, self.service.version


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> Box:
    return Box(tmp_path_factory.mktemp("fuzz"))


def test_the_description_lists_exactly_the_apps_json_routes(box):
    assert described_routes() == app_routes(box.app)


STATUSES: Counter[tuple[str, int]] = Counter()


@schema.exclude(path_regex="|".join(re.escape(p) for p in STREAMING)).parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_no_input_gets_a_5xx_a_traceback_or_a_change_when_refused(case, box):
    for who, cookies in box.cookies.items():
        before = box.snapshot()
        response = case.call(app=box.app, cookies=cookies)
        STATUSES[who, response.status_code] += 1
        case.validate_response(response, checks=[not_a_server_error])
        assert "Traceback" not in response.text and 'File "' not in response.text, who
        if response.status_code >= 400:
            assert box.snapshot() == before, f"refused {case.method} {case.path} as {who} changed the box"


def test_the_fuzzing_reached_the_routes():
    """Runs after the fuzzing (same module): the requests got past the edge's checks, so
    the routes themselves were fuzzed, and every refusal was a 4xx."""
    print(f"\nfuzz cases by (client, status): {dict(sorted(STATUSES.items()))}, {sum(STATUSES.values())} in all")
    assert STATUSES["host", 200] > 0 and STATUSES["seat", 200] > 0
    assert all(status < 500 for _, status in STATUSES)
