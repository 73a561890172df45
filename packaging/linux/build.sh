#!/usr/bin/env bash
# Build the Linux desktop bundle (PyInstaller, one folder) and its .deb from a clean checkout.
#   packaging/linux/build.sh            -> build/dist/splitchat/ and build/splitchat_<version>_amd64.deb
# Needs: python3 with venv, make, dpkg-deb (Debian/Ubuntu). Runs the bundle's --self-test before packaging.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
make setup  # also compiles the Spanish catalogue (app/resources/i18n/*.qm) that the bundle ships
.venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt pyinstaller
VERSION=$(.venv/bin/python -c "import app; print(app.__version__)")
BUILD=$ROOT/build
rm -rf "$BUILD/dist" "$BUILD/work" "$BUILD/deb"

echo "== translations"
# Compiled here too, so a bundle is never built from a catalogue older than its .ts.
for ts in app/resources/i18n/*.ts; do .venv/bin/pyside6-lrelease -silent "$ts" -qm "${ts%.ts}.qm"; done

echo "== PyInstaller bundle"
.venv/bin/pyinstaller --noconfirm --log-level WARN --distpath "$BUILD/dist" --workpath "$BUILD/work" \
    packaging/splitchat.spec
BUNDLE=$BUILD/dist/splitchat

echo "== self-test of the bundle"
QT_QPA_PLATFORM=offscreen "$BUNDLE/splitchat" --self-test

echo "== .deb"
DEB=$BUILD/deb
install -d "$DEB/DEBIAN" "$DEB/opt" "$DEB/usr/bin" "$DEB/usr/share/applications" \
    "$DEB/usr/share/icons/hicolor/scalable/apps" "$DEB/usr/share/icons/hicolor/256x256/apps" \
    "$DEB/usr/share/doc/splitchat"
cp -a "$BUNDLE" "$DEB/opt/splitchat"
cat > "$DEB/usr/bin/splitchat" <<'LAUNCHER'
#!/bin/sh
# splitchat launcher: the bundle lives in /opt/splitchat; user data stays in the user's own folders.
exec /opt/splitchat/splitchat "$@"
LAUNCHER
chmod 755 "$DEB/usr/bin/splitchat"
cp packaging/linux/splitchat.desktop "$DEB/usr/share/applications/"
cp packaging/assets/splitchat.svg "$DEB/usr/share/icons/hicolor/scalable/apps/"
cp packaging/assets/splitchat.png "$DEB/usr/share/icons/hicolor/256x256/apps/"
cp LICENSE "$DEB/usr/share/doc/splitchat/copyright" 2>/dev/null || echo "Apache-2.0" > "$DEB/usr/share/doc/splitchat/copyright"
SIZE_KB=$(du -sk "$DEB/opt" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@SIZE_KB@/$SIZE_KB/" packaging/linux/control.in > "$DEB/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz --build "$DEB" "$BUILD/splitchat_${VERSION}_amd64.deb"

echo "== sizes"
du -sh "$BUNDLE" "$BUILD/splitchat_${VERSION}_amd64.deb"
