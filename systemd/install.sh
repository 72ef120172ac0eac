#!/bin/sh
# Installs familiar as a system service on a Raspberry Pi (run as root: `sudo make install`).
#
#   0. refuses anything but 64-bit (arm64) Raspberry Pi OS Bookworm or Trixie
#      (device/pi_stack.py says why)
#   1. apt: picamera2, lgpio, espeak-ng, alsa-utils (and python3-venv); with an LED strip
#      configured, a C compiler for the strip driver's sysv_ipc (it has no wheel)
#   2. the system user `familiar` in the groups gpio, spi, video and audio
#   3. the project copied to /opt/familiar/src, installed into /opt/familiar/.venv
#      (made with --system-site-packages so apt's picamera2 and lgpio are importable),
#      with numpy pinned to apt's own (picamera2 is built for it) and, on numpy 1.x,
#      OpenCV below 4.12
#   4. /etc/familiar/familiar.toml from the example, only if there is none yet
#   5. systemd/familiar.service installed, enabled and (re)started
#
# FAMILIAR_DRY_RUN=1 (make install DRY_RUN=1) prints every step instead of running it:
# "+ command" for what it would run, "= ..." for what is already in place and skipped.
# Run twice, the second run changes nothing: apt, groupadd, useradd and usermod find
# everything present, the project is copied and pip-installed only when the commit or
# the requirements differ from the ones installed (src/.commit), the config is kept, the unit is copied
# only when it differs, and the service is restarted only when code or unit changed
# (else only started, which does nothing to a running service).
# PREFIX (default /opt/familiar), CONFIG_DIR (default /etc/familiar) and UNIT_DIR
# (default /etc/systemd/system) can be overridden.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/opt/familiar}
CONFIG_DIR=${CONFIG_DIR:-/etc/familiar}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
SERVICE_USER=familiar
DRY_RUN=${FAMILIAR_DRY_RUN:-}
APT_PACKAGES="python3-venv espeak-ng alsa-utils"
# Only in Raspberry Pi OS's own apt repository; elsewhere pip's lgpio wheel (the [pi]
# extra) stands in for python3-lgpio, and only a USB webcam can be used.
PI_PACKAGES="python3-picamera2 python3-lgpio"
# The LED strip's driver pulls in Adafruit-Blinka, and Blinka sysv_ipc, which pip builds.
STRIP_PACKAGES="gcc python3-dev"

CHANGED=

run() {
    echo "+ $*"
    if [ -z "$DRY_RUN" ]; then "$@"; fi
}

skip() {
    echo "= $*"
}

# git in the checkout. A checkout cloned by another user (pi) is refused as "dubious
# ownership" when root runs this without sudo (git trusts it only via SUDO_UID): this
# one checkout is trusted for these commands, never in the global config.
repo_git() {
    git -c safe.directory="$REPO" -C "$REPO" "$@"
}

need_root() {
    if [ -z "$DRY_RUN" ] && [ "$(id -u)" != 0 ]; then
        echo "install.sh: run as root (sudo make install)" >&2
        exit 1
    fi
}

# pip's requirements for this system (device/pi_stack.py): the project's extras on the
# first line, then numpy and OpenCV pins; refuses (exit 3) a system the box does not
# install on.
requirements() {
    PYTHONPATH="$REPO" python3 -m device.pi_stack pins --config "$CONFIG_DIR/familiar.toml" || exit 3
}

check_system() {
    plan=$(requirements)
    EXTRAS=$(echo "$plan" | head -n 1)
    echo "= $(. "${FAMILIAR_OS_RELEASE:-/etc/os-release}" && echo "$PRETTY_NAME"), $(dpkg --print-architecture)," \
        "extras $EXTRAS"
}

install_apt_packages() {
    missing=
    strip=
    case "$EXTRAS" in *strip*) strip=$STRIP_PACKAGES ;; esac
    for package in $APT_PACKAGES $PI_PACKAGES $strip; do
        if dpkg -s "$package" >/dev/null 2>&1; then skip "apt package $package is installed"
        else missing="$missing $package"; fi
    done
    [ -n "$missing" ] || return 0
    run apt-get update -qq
    for package in $missing; do
        case " $PI_PACKAGES " in
            *" $package "*) if ! apt-cache show "$package" >/dev/null 2>&1; then
                echo "note: $package is not in this system's apt sources (not Raspberry Pi OS)" >&2
                continue
            fi ;;
        esac
        # Without recommends: python3-picamera2 recommends the desktop's Qt and OpenGL
        # previews, hundreds of MB that a Lite box never shows.
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package"
    done
}

create_user() {
    for group in gpio spi video audio; do
        if getent group "$group" >/dev/null; then skip "group $group exists"
        else run groupadd --system "$group"; fi
    done
    if id "$SERVICE_USER" >/dev/null 2>&1; then
        skip "user $SERVICE_USER exists"
    else
        run useradd --system --user-group --home-dir /var/lib/familiar --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    groups=$(id -nG "$SERVICE_USER" 2>/dev/null || true)
    missing=""
    for group in gpio spi video audio; do
        case " $groups " in *" $group "*) ;; *) missing="$missing $group" ;; esac
    done
    if [ -z "$missing" ]; then skip "$SERVICE_USER is in gpio, spi, video and audio"
    else run usermod --append --groups gpio,spi,video,audio "$SERVICE_USER"; fi
}

install_project() {
    if [ -x "$PREFIX/.venv/bin/python" ]; then skip "$PREFIX/.venv exists"
    else run install -d -m 0755 "$PREFIX"; run python3 -m venv --system-site-packages "$PREFIX/.venv"; fi
    # The committed tree when this is a git clone (no .venv, state or caches), copied into
    # a fresh folder so that files the new commit deleted do not linger.
    commit=$(repo_git rev-parse HEAD 2>/dev/null || true)
    plan=$(requirements)
    extras=$(echo "$plan" | head -n 1)
    pins=$(echo "$plan" | tail -n +2)
    stamp=$(printf '%s\n%s' "$commit" "$plan")
    if [ -n "$commit" ] && [ "$(cat "$PREFIX/src/.commit" 2>/dev/null)" = "$stamp" ]; then
        skip "$PREFIX/src holds commit $commit, installed with $(echo $plan)"
        return
    fi
    run rm -rf "$PREFIX/src.new"
    run install -d -m 0755 "$PREFIX/src.new"
    if [ -n "$commit" ]; then
        # Through a file, not a pipe: sh has no pipefail, and a failing git archive
        # piped into tar left an empty tree that was then installed.
        run git -c safe.directory="$REPO" -C "$REPO" archive --output="$PREFIX/src.tar" HEAD
        run tar -x --no-same-owner -f "$PREFIX/src.tar" -C "$PREFIX/src.new"
        run rm -f "$PREFIX/src.tar"
    else
        # root-owned like the rest of /opt/familiar, not the checkout owner's
        run cp -R "$REPO/." "$PREFIX/src.new/"
        run rm -rf "$PREFIX/src.new/.venv"
    fi
    run rm -rf "$PREFIX/src"
    run mv "$PREFIX/src.new" "$PREFIX/src"
    # numpy pinned to apt's (picamera2 is built for it), OpenCV for that numpy;
    # apt's lgpio already satisfies the [pi] extra's lgpio.
    run "$PREFIX/.venv/bin/python" -m pip install -q "$PREFIX/src$extras" $pins
    # (the wheel pip builds carries the compiled message catalogs: setup.py)
    run install -m 0644 "$REPO/hardware.md" "$PREFIX/hardware.md"
    if [ -n "$commit" ]; then
        echo "+ echo $commit $(echo $plan) > $PREFIX/src/.commit"
        if [ -z "$DRY_RUN" ]; then echo "$stamp" > "$PREFIX/src/.commit"; fi
    fi
    CHANGED=1
}

install_config() {
    if [ ! -e "$CONFIG_DIR/familiar.toml" ]; then
        run install -d -m 0755 "$CONFIG_DIR"
        run install -m 0644 "$REPO/device/familiar.example.toml" "$CONFIG_DIR/familiar.toml"
    else
        echo "keeping $CONFIG_DIR/familiar.toml (the example is in $PREFIX/src/device)"
    fi
}

install_unit() {
    if cmp -s "$REPO/systemd/familiar.service" "$UNIT_DIR/familiar.service"; then
        skip "$UNIT_DIR/familiar.service is up to date"
    else
        run install -m 0644 "$REPO/systemd/familiar.service" "$UNIT_DIR/familiar.service"
        run systemctl daemon-reload
        CHANGED=1
    fi
    if systemctl is-enabled --quiet familiar.service 2>/dev/null; then skip "familiar.service is enabled"
    else run systemctl enable familiar.service; fi
    if [ -n "$CHANGED" ]; then run systemctl restart familiar.service
    else run systemctl start familiar.service; fi
}

need_root
check_system
install_apt_packages
create_user
install_project
install_config
install_unit
echo "familiar is installed. Check the hardware (the service holds the camera, pins and port):"
echo "  sudo systemctl stop familiar"
echo "  sudo -u $SERVICE_USER $PREFIX/.venv/bin/familiar doctor"
echo "  sudo systemctl start familiar"
echo "and follow the service with: journalctl -u familiar -f"
