#!/usr/bin/env bash
# A real-window screenshot of the desktop app mid-conversation, rendered by X (Xvfb), for the README.
# Needs Debian's xvfb and the X libraries Qt loads (apt-get install xvfb xauth libxcb-cursor0 libxcb-icccm4
# libxcb-keysyms1 libxkbcommon-x11-0 libegl1) and `make setup`.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/images/app.png}"
shift || true
# Further arguments go to scripts/screenshot.py (--size 1366x768, --metrics, --settings FILE).
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python scripts/screenshot.py "$out" "$@"
