"""The systemd side: the unit verifies, it carries the hardening, install.sh's plan, sd_notify."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from device import exit_status
from device.exit_status import SETUP_ERROR
from device.notify import Notifier
from support import ROOT
from support.daemon import answers, free_port
from support.waiting import wait_for

REPO = ROOT
UNIT = REPO / "systemd" / "familiar.service"
INSTALL = REPO / "systemd" / "install.sh"


def directives(text: str) -> list[tuple[str, str]]:
    """``Key=value`` pairs in file order (a unit may repeat a key, e.g. Environment)."""
    pairs = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            pairs.append((key.strip(), value.strip()))
    return pairs


def verify(unit_text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` on a copy whose ExecStart points at a real program (the
    venv of /opt/familiar exists only on an installed Pi)."""
    copy = tmp_path / "familiar.service"
    copy.write_text(
        unit_text.replace("ExecStart=/opt/familiar/.venv/bin/familiar", f"ExecStart={shutil.which('true')}")
    )
    return subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


@needs_systemd_analyze
def test_unit_verifies_without_any_warning(tmp_path: Path) -> None:
    result = verify(UNIT.read_text(), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "" and result.stdout.strip() == ""


@needs_systemd_analyze
def test_verify_does_catch_a_mistyped_unit(tmp_path: Path) -> None:
    result = verify(UNIT.read_text().replace("WatchdogSec=", "WatchdogSecs="), tmp_path)
    assert "Unknown key 'WatchdogSecs'" in result.stderr


def test_unit_has_the_service_contract_and_hardening() -> None:
    pairs = directives(UNIT.read_text())
    found = dict(pairs)
    expected = {
        "Type": "notify",
        "WatchdogSec": "30",
        "NotifyAccess": "main",
        "ExecStart": "/opt/familiar/.venv/bin/familiar run",
        "Restart": "on-failure",
        "User": "familiar",
        "SupplementaryGroups": "gpio spi video audio",
        "StateDirectory": "familiar",
        "ConfigurationDirectory": "familiar",
        "WorkingDirectory": "/var/lib/familiar",
        "ProtectSystem": "strict",
        "ProtectHome": "true",
        "PrivateTmp": "true",
        "NoNewPrivileges": "true",
        "RestartPreventExitStatus": "2 6",
        "ProtectKernelTunables": "true",
        "ProtectKernelModules": "true",
        "ProtectKernelLogs": "true",
        "ProtectControlGroups": "true",
    }
    assert {key: found.get(key) for key in expected} == expected
    environment = [value for key, value in pairs if key == "Environment"]
    assert "GPIOZERO_PIN_FACTORY=lgpio" in environment
    assert "LG_WD=/var/lib/familiar" in environment
    assert "PrivateDevices" not in found  # the box needs /dev/gpiochip*, cameras, /dev/snd
    assert "ProtectClock" not in found and "DeviceAllow" not in found  # a device allow-list would too


def test_a_configuration_error_exits_with_the_status_systemd_does_not_restart(tmp_path: Path) -> None:
    """RestartPreventExitStatus=2 only helps if a bad configuration really exits 2."""
    bad = tmp_path / "familiar.toml"
    bad.write_text("[camera]\nfps = 500\n")
    from device.cli import main

    assert main(["--config", str(bad), "run"]) == exit_status.CONFIG_ERROR == 2
    assert dict(directives(UNIT.read_text()))["RestartPreventExitStatus"].split() == ["2", "6"]


def test_the_unit_does_not_restart_after_any_set_up_status() -> None:
    listed = dict(directives(UNIT.read_text()))["RestartPreventExitStatus"].split()
    assert listed == [str(status) for status in exit_status.NO_RESTART]
    assert exit_status.SETUP_ERROR == 6


def test_a_pin_that_cannot_be_claimed_exits_6_with_the_pin_and_the_fix(tmp_path: Path, monkeypatch, capsys) -> None:
    """Real pins on a machine with no usable pin library: gpiozero cannot give the box its
    pins, which a restart cannot change, so the service exits with a status the unit does
    not restart, and the journal (stderr) names the pins and says what to do."""
    from gpiozero import Device

    from device import doctor
    from device.cli import main

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    monkeypatch.setattr(doctor, "_in_group", lambda name: True)  # as the service user is
    config = tmp_path / "familiar.toml"
    config.write_text(f'[box]\nstate_dir = "{tmp_path}"\n[camera]\nsource = "replay:{tmp_path}"\n')
    try:
        assert main(["--config", str(config), "run"]) == exit_status.SETUP_ERROR
    finally:
        Device.pin_factory = None
    journal = capsys.readouterr().err
    assert "set-up error: cannot use GPIO pins 4, 27, 22" in journal
    assert "fix: on a Raspberry Pi: sudo apt install python3-lgpio" in journal
    assert "not restarting (exit status 6)" in journal


def security(unit_text: str, tmp_path: Path) -> tuple[float, str]:
    """``systemd-analyze security --offline`` on the unit: its overall exposure (0 = locked
    down, 10 = fully exposed) and the report."""
    copy = tmp_path / "familiar.service"
    copy.write_text(unit_text)
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(copy)], capture_output=True, text=True, timeout=60
    )
    match = re.search(r"Overall exposure level for familiar.service: ([0-9.]+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1)), result.stdout


@needs_systemd_analyze
def test_security_exposure_is_measured_and_the_kernel_hardening_counts(tmp_path: Path) -> None:
    """4.1 ("OK") with the unit as committed, 5.2 without its Protect* lines, 8.5
    ("EXPOSED") for the unit before the kernel hardening was added (systemd 252). What
    keeps it above 4: the device access the box needs, the
    network it serves on, and no system call filter (picamera2, OpenCV and lgpio's
    system calls are not listed anywhere a filter could be checked against)."""
    text = UNIT.read_text()
    exposure, report = security(text, tmp_path)
    assert exposure <= 4.5, report
    for key in ("ProtectKernelTunables=", "ProtectKernelModules=", "ProtectKernelLogs=", "ProtectControlGroups="):
        line = next(row for row in report.splitlines() if key in row)
        assert line.lstrip().startswith("✓"), line
    weaker = "\n".join(row for row in text.splitlines() if not row.startswith("Protect"))
    assert security(weaker, tmp_path)[0] > exposure + 1.0


BOOKWORM = ("bookworm", "Debian GNU/Linux 12 (bookworm)", "1:1.24.2-1+deb12u1")
TRIXIE = ("trixie", "Debian GNU/Linux 13 (trixie)", "1:2.2.4+ds-1")
"""Raspberry Pi OS releases as the installer sees them: codename, name, apt's python3-numpy."""


def pi_system(folder: Path, release: tuple[str, str, str] = BOOKWORM, architecture: str = "arm64") -> dict[str, str]:
    """The environment of an installer run that sees a Raspberry Pi OS system: ``dpkg
    --print-architecture``, ``dpkg-query`` of python3-numpy and /etc/os-release answer as
    they do there; every other dpkg question goes to this machine's dpkg."""
    codename, name, numpy = release
    shims = folder / "bin"
    shims.mkdir(parents=True, exist_ok=True)
    dpkg, query = shutil.which("dpkg") or "false", shutil.which("dpkg-query") or "false"
    (shims / "dpkg").write_text(
        f'#!/bin/sh\n[ "$1" = --print-architecture ] && {{ echo {architecture}; exit 0; }}\nexec {dpkg} "$@"\n'
    )
    (shims / "dpkg-query").write_text(
        f'#!/bin/sh\ncase "$*" in *python3-numpy*) printf %s "{numpy}"; exit 0 ;; esac\nexec {query} "$@"\n'
    )
    apt_cache = shutil.which("apt-cache") or "false"
    (shims / "apt-cache").write_text(  # Raspberry Pi OS's own packages are in its apt sources
        f'#!/bin/sh\ncase "$*" in "show python3-picamera2"|"show python3-lgpio") exit 0 ;; esac\nexec {apt_cache} "$@"\n'
    )
    for shim in shims.iterdir():
        shim.chmod(0o755)
    os_release = folder / "os-release"
    os_release.write_text(f'PRETTY_NAME="{name}"\nVERSION_CODENAME={codename}\nID=debian\n')
    return {"PATH": f"{shims}:{os.environ['PATH']}", "FAMILIAR_OS_RELEASE": str(os_release)}


def run_installer(
    tmp_path: Path, *command: str, system: dict[str, str] | None = None, **paths: Path
) -> subprocess.CompletedProcess[str]:
    """The installer's dry run (changes nothing) on a Bookworm arm64 system unless told."""
    env = {
        **os.environ,
        **(system or pi_system(tmp_path / "system")),
        "FAMILIAR_DRY_RUN": "1",
        "CONFIG_DIR": str(tmp_path / "etc"),
        **{key: str(value) for key, value in paths.items()},
    }
    return subprocess.run(
        list(command or ("sh", str(INSTALL))), capture_output=True, text=True, env=env, timeout=120, cwd=REPO
    )


def install_plan(tmp_path: Path, *command: str, system: dict[str, str] | None = None, **paths: Path) -> str:
    """What the installer would do, as its dry run prints it."""
    result = run_installer(tmp_path, *command, system=system, **paths)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize(
    ("release", "pins"),
    [
        (BOOKWORM, "numpy==1.24.2 opencv-python-headless>=4.8,<4.12"),
        (TRIXIE, "numpy==2.2.4"),  # OpenCV 4.12 and later are built for numpy 2
    ],
)
def test_make_install_plans_numpy_and_opencv_from_apt_s_numpy(tmp_path: Path, release, pins: str) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    system = pi_system(tmp_path / "system", release)
    plan = install_plan(tmp_path, "make", "-s", "install", "DRY_RUN=1", system=system)
    assert f"= {release[1]}, arm64, extras [pi]" in plan
    assert f"-m pip install -q /opt/familiar/src[pi] {pins}\n" in plan


@pytest.mark.parametrize(
    ("release", "architecture", "says"),
    [
        (BOOKWORM, "armhf", "this system is armhf: the box needs 64-bit Raspberry Pi OS (arm64)"),
        (TRIXIE, "amd64", "this system is amd64: "),
        (
            ("bullseye", "Debian GNU/Linux 11 (bullseye)", "1:1.19.5-1"),
            "arm64",
            "this system is bullseye: the box installs on",
        ),
    ],
)
def test_make_install_refuses_other_systems_before_changing_anything(
    tmp_path: Path, release, architecture: str, says: str
) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    system = pi_system(tmp_path / "system", release, architecture)
    result = run_installer(tmp_path, "make", "-s", "install", "DRY_RUN=1", system=system)
    assert result.returncode != 0
    assert f"familiar cannot be installed here: {says}" in result.stderr
    assert not [line for line in result.stdout.splitlines() if line.startswith("+ ")]


def test_a_strip_in_the_config_installs_its_driver_and_a_compiler(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "familiar.toml").write_text('[lights]\nstrip = "/dev/spidev0.0"\n')
    plan = install_plan(tmp_path)
    assert "extras [pi,strip]" in plan and "/opt/familiar/src[pi,strip] numpy==1.24.2" in plan
    for package in ("gcc", "python3-dev"):
        assert f"= apt package {package} is installed" in plan or f"apt-get install -y -qq {package}" in plan
    no_strip = install_plan(tmp_path / "none")
    assert "python3-dev" not in no_strip and "[pi,strip]" not in no_strip


def test_install_script_plan(tmp_path: Path) -> None:
    plan = install_plan(tmp_path)
    for package in ("python3-venv", "espeak-ng", "alsa-utils"):
        assert f"= apt package {package} is installed" in plan or f"apt-get install -y -qq {package}" in plan, package
    for step in (
        "usermod --append --groups gpio,spi,video,audio familiar",
        "python3 -m venv --system-site-packages /opt/familiar/.venv",
        f"+ git -c safe.directory={REPO} -C {REPO} archive --output=/opt/familiar/src.tar HEAD\n",
        "+ tar -x --no-same-owner -f /opt/familiar/src.tar -C /opt/familiar/src.new\n",
        "-m pip install -q /opt/familiar/src[pi] numpy==1.24.2 opencv-python-headless>=4.8,<4.12",
        f"device/familiar.example.toml {tmp_path}/etc/familiar.toml",
        "systemd/familiar.service /etc/systemd/system/familiar.service",
        "systemctl enable familiar.service",
        "systemctl restart familiar.service",
    ):
        assert step in plan, step
    assert not (tmp_path / "etc").exists()  # a dry run changes nothing


def test_apt_installs_nothing_the_packages_merely_recommend(tmp_path: Path) -> None:
    """python3-picamera2 recommends the desktop's Qt and OpenGL previews."""
    plan = install_plan(tmp_path)
    installs = [line for line in plan.splitlines() if " apt-get install " in line]
    assert any(line.endswith("--no-install-recommends python3-picamera2") for line in installs), plan
    assert all("--no-install-recommends" in line for line in installs)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (to own files as another user / to run for real)")


@needs_root
def test_root_installs_a_checkout_another_user_owns_from_git(tmp_path: Path) -> None:
    """Run as root without sudo (no SUDO_UID), git refuses a checkout the pi user cloned
    ("dubious ownership"): the installer took the copy path and, with no commit to stamp,
    reinstalled at every run."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, timeout=120)
    shutil.copy(INSTALL, clone / "systemd" / "install.sh")  # this installer, over the clone's committed one
    subprocess.run(["chown", "-R", "65534:65534", str(clone)], check=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith("SUDO_")}
    env["HOME"] = str(tmp_path)  # no global safe.directory of this machine's root
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    assert commit.strip()
    system = {**pi_system(tmp_path / "system"), "HOME": str(tmp_path)}
    refused = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True, env=env)
    if "dubious ownership" not in refused.stderr:  # what the old installer ran into
        pytest.skip("this git (before 2.35.2) trusts a checkout of any owner")
    plan = install_plan(tmp_path, "sh", str(clone / "systemd" / "install.sh"), system=system)
    assert f"-C {clone} archive --output=/opt/familiar/src.tar HEAD" in plan
    assert "cp -R" not in plan and f"+ echo {commit.strip()} [pi]" in plan


GIT_ARCHIVE_FAILING_HALFWAY = "\n".join(
    [
        'case "$*" in *archive*)',
        "    out=/dev/stdout",
        '    for arg in "$@"; do case $arg in --output=*) out=${{arg#--output=}} ;; esac; done',
        '    {git} -C {repo} archive HEAD README.md > "$out"  # a whole tar, of one file',
        '    echo "fatal: unable to read tree" >&2; exit 128 ;;',
        "esac",
        'exec {git} "$@"',
    ]
)
"""git, except that ``git archive`` writes part of the tree and then fails, as with a
damaged object store."""


@needs_root
def test_a_failing_git_archive_stops_the_install(tmp_path: Path) -> None:
    """For real (not a dry run), in temporary folders, with the system's commands standing
    in: git archive fails halfway, and nothing after it runs (through the old pipe, tar
    read the part it got and the install went on with a tree of one file)."""
    system = pi_system(tmp_path / "system")
    shims = Path(system["PATH"].split(":")[0])
    log = tmp_path / "ran.log"
    for name, script in {
        "git": GIT_ARCHIVE_FAILING_HALFWAY.format(git=shutil.which("git"), repo=REPO),
        "getent": "exit 0",  # every group exists
        "id": f'case "$*" in "-nG familiar") echo familiar gpio spi video audio ;; familiar) ;; *) exec {shutil.which("id")} "$@" ;; esac',
        "systemctl": f'echo "systemctl $*" >> {log}',
    }.items():
        (shims / name).write_text(f"#!/bin/sh\n{script}\n")
        (shims / name).chmod(0o755)
    dpkg = (shims / "dpkg").read_text()
    (shims / "dpkg").write_text(dpkg.replace("#!/bin/sh\n", '#!/bin/sh\n[ "$1" = -s ] && exit 0\n'))  # all installed
    prefix = tmp_path / "opt"
    (prefix / ".venv" / "bin").mkdir(parents=True)
    (prefix / ".venv" / "bin" / "python").write_text(f'#!/bin/sh\necho "python $*" >> {log}\n')
    (prefix / ".venv" / "bin" / "python").chmod(0o755)
    env = {**os.environ, **system, "PREFIX": str(prefix), "UNIT_DIR": str(tmp_path / "units")}
    env.update(CONFIG_DIR=str(tmp_path / "etc"), FAMILIAR_DRY_RUN="")
    result = subprocess.run(["sh", str(INSTALL)], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode != 0 and "fatal: unable to read tree" in result.stderr
    assert not (prefix / "src").exists() and not log.exists()  # no pip, no unit, no restart


def test_make_install_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    plan = install_plan(tmp_path, "make", "-s", "install", "DRY_RUN=1")
    steps = [line for line in plan.splitlines() if line.startswith(("+ ", "= "))]
    assert len(steps) >= 15 and "+ systemctl restart familiar.service" in steps
    assert not (tmp_path / "etc").exists()


@pytest.mark.slow
def test_a_second_run_over_an_installed_box_changes_nothing(tmp_path: Path) -> None:
    """The state a first run leaves (made here for real: the committed tree and its
    commit stamp, a venv, the unit and the config): the plan copies, installs and
    restarts nothing. The system-wide steps (apt packages, the user and its groups,
    systemctl enable) are skipped the same way by reading dpkg -s, id and
    systemctl is-enabled, which on this machine say what a Pi's first run would change."""
    prefix, units, etc = tmp_path / "opt", tmp_path / "units", tmp_path / "etc"
    (prefix / ".venv" / "bin").mkdir(parents=True)
    (prefix / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (prefix / "src").mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(prefix / "src")], input=archive.stdout, check=True)
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    (prefix / "src" / ".commit").write_text(f"{commit}\n[pi]\nnumpy==1.24.2\nopencv-python-headless>=4.8,<4.12\n")
    units.mkdir()
    shutil.copy(UNIT, units / "familiar.service")
    etc.mkdir()
    (etc / "familiar.toml").write_text("[web]\nport = 9000\n")
    plan = install_plan(tmp_path, PREFIX=prefix, UNIT_DIR=units, CONFIG_DIR=etc)
    assert f"= {prefix}/.venv exists" in plan
    assert f"= {prefix}/src holds commit {commit}, installed" in plan
    assert f"= {units}/familiar.service is up to date" in plan
    assert f"keeping {etc}/familiar.toml" in plan
    changes = [line for line in plan.splitlines() if line.startswith("+ ")]
    assert not [line for line in changes if str(prefix) in line or str(units) in line or str(etc) in line]
    assert "+ systemctl restart familiar.service" not in changes
    assert "+ systemctl start familiar.service" in changes  # does nothing to a running service


@pytest.mark.slow
def test_install_script_keeps_an_existing_config(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "familiar.toml").write_text("[web]\nport = 9000\n")
    plan = install_plan(tmp_path)
    assert f"keeping {tmp_path}/etc/familiar.toml" in plan
    assert "familiar.example.toml" not in plan


@pytest.fixture
def notify_socket(monkeypatch) -> Iterator[socket.socket]:
    """A datagram socket standing in for systemd's NOTIFY_SOCKET (short path: the limit is
    108 bytes)."""
    with tempfile.TemporaryDirectory(prefix="sd") as folder:
        path = os.path.join(folder, "notify")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(path)
        listener.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        yield listener
        listener.close()


def test_ready_watchdog_status_and_stopping_reach_the_socket(notify_socket) -> None:
    notifier = Notifier()
    assert notifier.available
    notifier.ready()
    assert notify_socket.recv(1024) == b"READY=1"
    notifier.watchdog_ping()
    assert notify_socket.recv(1024) == b"WATCHDOG=1"
    notifier.status("waiting for\na roll")
    assert notify_socket.recv(1024) == b"STATUS=waiting for a roll"
    notifier.stopping()
    assert notify_socket.recv(1024) == b"STOPPING=1"


def test_abstract_notify_socket(monkeypatch) -> None:
    name = f"familiar-test-{os.getpid()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(5)
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        Notifier().ready()
        assert listener.recv(1024) == b"READY=1"
    finally:
        listener.close()


def test_without_systemd_everything_is_a_no_op(monkeypatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    notifier = Notifier()
    assert not notifier.available
    notifier.ready()
    notifier.watchdog_ping()
    notifier.status("x")
    assert notifier.watchdog_period() is None


def test_watchdog_period_is_for_this_process_only(monkeypatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert Notifier().watchdog_period() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert Notifier().watchdog_period() is None
    monkeypatch.delenv("WATCHDOG_PID")
    assert Notifier().watchdog_period() == 30.0


def run_box(tmp_path: Path, *command: str, module: str = "device.cli") -> subprocess.Popen:
    """The box as systemd starts it (a process of its own), its stderr kept."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    return subprocess.Popen(
        [sys.executable, "-m", module, *command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_busy_port_exits_with_the_set_up_status_and_says_why(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        box = run_box(tmp_path, "demo", "--no-bots", "--port", str(port), "--state", str(tmp_path / "state"))
        _, stderr = box.communicate(timeout=120)
    assert box.returncode == SETUP_ERROR == 6
    assert "Traceback" not in stderr
    assert f"cannot serve the pages on 127.0.0.1:{port}: another program already listens there" in stderr
    assert "set web.port" in stderr and "not restarting (exit status 6)" in stderr
    assert "6" in dict(directives(UNIT.read_text()))["RestartPreventExitStatus"].split()


@pytest.mark.slow
def test_sigterm_stops_the_box_within_5_s_while_narration_waits(tmp_path: Path) -> None:
    port = free_port()
    box = run_box(tmp_path, "--port", str(port), "--state", str(tmp_path / "state"), module="support.chatty")
    try:
        opener = urllib.request.build_opener()
        wait_for(lambda: answers(opener, f"http://127.0.0.1:{port}/board"), timeout=60)
        box.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        _, stderr = box.communicate(timeout=60)
        took = time.monotonic() - asked
    finally:
        box.kill()
        box.wait(10)
    assert box.returncode == 0, stderr
    assert took < 5.0, f"stopped {took:.1f} s after SIGTERM"  # finishing the queue took over 12 s
    assert re.search(r"stopping: \d+ waiting lines of narration not said", stderr), stderr
