# familiar: two commands set everything up on a fresh Debian / Raspberry Pi OS machine.
#   make demo   installs what it needs, then runs the box on simulated hardware
#   make test   installs what it needs, then runs the whole suite
# The Python environment lives in .venv (made with --system-site-packages so that
# Raspberry Pi OS's apt-installed picamera2 is importable); system packages come from apt.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
APT_PKGS := espeak-ng alsa-utils chromium sox
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test test-fast lint bench load soak system-deps venv catalogs install clean

system-deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing with apt:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# The tests drive the LED strip's own pixel buffer, so they need its driver ([strip]).
# On a Raspberry Pi the [pi] extra, and numpy pinned to apt's (apt's picamera2 is built
# for it) with an OpenCV for that numpy, as the installer does (device/pi_stack.py).
comma := ,
ON_PI := $(shell grep -qa "Raspberry Pi" /proc/device-tree/model 2>/dev/null && echo yes)
EXTRAS := test,strip$(if $(ON_PI),$(comma)pi)
PI_PINS = $(if $(ON_PI),$(shell $(PYTHON) -m device.pi_stack pins | tail -n +2))

$(STAMP): pyproject.toml
	@[ -x $(PY) ] || $(PYTHON) -m venv --system-site-packages $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[$(EXTRAS)]' $(foreach pin,$(PI_PINS),'$(pin)')
	@touch $(STAMP)

# The message catalogs the box reads (web/translations/*/LC_MESSAGES/*.mo), from the .po files.
catalogs: $(STAMP)
	$(PY) -m web.catalogs compile >/dev/null

venv: system-deps $(STAMP) catalogs

demo: venv
	$(VENV)/bin/familiar demo

test: venv
	$(PY) -m pytest -q -n 2 --dist loadfile

# Everything but the browser and the slow tests, for the edit-run loop.
test-fast: venv
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not browser and not slow"

# ruff (lint and format) over the tree, strict mypy over the engine (pyproject.toml).
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

bench: venv
	$(PY) -m bench

# 10 phones + the host under load for LOAD_SECONDS (bench/load.py; `make bench` runs it too).
LOAD_SECONDS ?= 600
load: venv
	FAMILIAR_LOAD_SECONDS=$(LOAD_SECONDS) $(PY) -m bench.load

# Power cuts: SOAK_KILLS SIGKILLs of a real daemon over random games of every game
# (tests/proof/test_power_cuts.py; `make test` runs a few).
SOAK_KILLS ?= 200
soak: venv
	FAMILIAR_SOAK_KILLS=$(SOAK_KILLS) $(PY) -m pytest -q -s -p no:cacheprovider tests/proof/test_power_cuts.py

# On a Raspberry Pi: installs the box as a system service (run as root); the
# installer makes its own venv in /opt/familiar, so no development set-up is needed.
# `make install DRY_RUN=1` prints every step and changes nothing (no root needed).
DRY_RUN ?=
install:
	FAMILIAR_DRY_RUN=$(DRY_RUN) ./systemd/install.sh

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
