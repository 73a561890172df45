"""The desktop app (PySide6). Arrives with the desktop-app issue; the engine never imports it."""
