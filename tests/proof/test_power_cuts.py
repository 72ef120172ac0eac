"""Power cuts: SIGKILL of a real daemon at random moments while random legal games of
every registered game are played through the HTTP API (see support.crash).

``make soak`` runs it with FAMILIAR_SOAK_KILLS=200; the suite runs a few kills."""

from __future__ import annotations

import os

import pytest

from support.crash import Soak

KILLS = int(os.environ.get("FAMILIAR_SOAK_KILLS", "4"))
SEED = int(os.environ.get("FAMILIAR_SOAK_SEED", "24"))


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_action(tmp_path):
    figures = Soak(tmp_path / "state", SEED).run(KILLS)
    print(f"\npower cuts: {figures}")
    assert figures.failures == []
    assert figures.kills >= KILLS and figures.integrity_ok == figures.kills
    assert figures.lost == 0 and figures.acked > 0
