#!/bin/sh
# Installs familiar as a system service on a Raspberry Pi (run as root: `sudo make install`).
#
#   1. apt: picamera2, lgpio, espeak-ng, alsa-utils (and python3-venv)
#   2. the system user `familiar` in the groups gpio, spi, video and audio
#   3. the project copied to /opt/familiar/src, installed into /opt/familiar/.venv
#      (made with --system-site-packages so apt's picamera2 and lgpio are importable)
#   4. /etc/familiar/familiar.toml from the example, only if there is none yet
#   5. systemd/familiar.service installed, enabled and (re)started
#
# FAMILIAR_DRY_RUN=1 prints every command that changes the system instead of running it.
# PREFIX (default /opt/familiar) and CONFIG_DIR (default /etc/familiar) can be overridden.
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

run() {
    echo "+ $*"
    if [ -z "$DRY_RUN" ]; then "$@"; fi
}

need_root() {
    if [ -z "$DRY_RUN" ] && [ "$(id -u)" != 0 ]; then
        echo "install.sh: run as root (sudo make install)" >&2
        exit 1
    fi
}

install_apt_packages() {
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $APT_PACKAGES
    for package in $PI_PACKAGES; do
        if apt-cache show "$package" >/dev/null 2>&1; then
            run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package"
        else
            echo "note: $package is not in this system's apt sources (not Raspberry Pi OS)" >&2
        fi
    done
}

create_user() {
    for group in gpio spi video audio; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        run useradd --system --user-group --home-dir /var/lib/familiar --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    run usermod --append --groups gpio,spi,video,audio "$SERVICE_USER"
}

install_project() {
    run install -d -m 0755 "$PREFIX" "$PREFIX/src"
    # The committed tree when this is a git clone: no .venv, state or caches get copied.
    if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        echo "+ git -C $REPO archive HEAD | tar -x -C $PREFIX/src"
        if [ -z "$DRY_RUN" ]; then git -C "$REPO" archive HEAD | tar -x -C "$PREFIX/src"; fi
    else
        run cp -a "$REPO/." "$PREFIX/src/"
        run rm -rf "$PREFIX/src/.venv"
    fi
    [ -x "$PREFIX/.venv/bin/python" ] || run python3 -m venv --system-site-packages "$PREFIX/.venv"
    run "$PREFIX/.venv/bin/python" -m pip install -q --upgrade pip
    # apt's lgpio and numpy already satisfy the requirements and are left alone.
    run "$PREFIX/.venv/bin/python" -m pip install -q "$PREFIX/src[pi]"
    run install -m 0644 "$REPO/hardware.md" "$PREFIX/hardware.md"
}

install_config() {
    run install -d -m 0755 "$CONFIG_DIR"
    if [ ! -e "$CONFIG_DIR/familiar.toml" ]; then
        run install -m 0644 "$REPO/device/familiar.example.toml" "$CONFIG_DIR/familiar.toml"
    else
        echo "keeping $CONFIG_DIR/familiar.toml (the example is in $PREFIX/src/device)"
    fi
}

install_unit() {
    run install -m 0644 "$REPO/systemd/familiar.service" "$UNIT_DIR/familiar.service"
    run systemctl daemon-reload
    run systemctl enable familiar.service
    run systemctl restart familiar.service
}

need_root
install_apt_packages
create_user
install_project
install_config
install_unit
echo "familiar is installed. Check the hardware with:"
echo "  sudo -u $SERVICE_USER $PREFIX/.venv/bin/familiar doctor"
echo "and follow the service with: journalctl -u familiar -f"
