"""Render the desktop app mid-conversation and save a screenshot for the README.

    packaging/screenshot.sh docs/images/app.png      # a real X window under Xvfb (what the README shows)
    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py out.png   # no X server at all
    ... scripts/screenshot.py out.png --size 1366x768 --metrics --settings settings.png   # a review's set
    ... scripts/screenshot.py out.png --size 1024x640 --font-scale 1.5 --privacy privacy.png   # 150 % text

``--language es`` (or ``LANG=es_ES.UTF-8``) shows the app, and the conversation, in Spanish.

``--font-scale`` enlarges the application font before the window opens, as a desktop's text-size setting
does; ``--privacy`` also saves the Privacy panel on its own.

The window opens as a clinician first sees it (the Privacy panel beside the chat); ``--metrics`` shows
the live plots instead, and ``--settings`` also saves the settings panel once the answer is done.

Uses throwaway settings and conversation folders; the model cache is the normal one. The picture is
taken while the answer is still streaming.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

NOTE = (
    "Clause 7.2: The Tenant shall keep the Premises in good repair and condition, fair wear and tear "
    "excepted, and shall not make any structural alteration without the Landlord's prior written consent."
)
QUESTION = f"{NOTE}\n\nQuote the part of clause 7.2 about alterations, then explain it in one sentence."
NOTE_ES = (
    "Cláusula 7.2: El arrendatario mantendrá el inmueble en buen estado de conservación, salvo el desgaste "
    "normal por el uso, y no realizará ninguna alteración estructural sin el consentimiento previo y por escrito "
    "del arrendador."
)
QUESTION_ES = f"{NOTE_ES}\n\nCite la parte de la cláusula 7.2 sobre las alteraciones y explíquela en una frase."
GRAB_AT_CHARS = 140  # mid-answer


def main(
    out: Path,
    size: tuple[int, int] = (1440, 900),
    metrics: bool = False,
    settings: Path | None = None,
    font_scale: float = 1.0,
    privacy: Path | None = None,
    language: str = "system",
) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="splitchat-shot-"))
    for name in ("CONFIG", "DATA"):
        os.environ[f"SPLITCHAT_{name}_DIR"] = str(scratch / name.lower())
    os.environ["SPLITCHAT_POLICY"] = str(scratch / "policy.json")
    os.environ.setdefault("QT_API", "pyside6")
    import qasync
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from app.data.conversations import ConversationStore
    from app.data.settings import AppSettings
    from app.host import EngineHost
    from app.ui.i18n import install_language
    from app.ui.main_window import MainWindow, panel_width

    app = QApplication.instance() or QApplication(["splitchat"])
    if font_scale != 1.0:
        font = app.font()
        font.setPointSizeF(font.pointSizeF() * font_scale)
        app.setFont(font)
    spanish = install_language(language, app) == "es"
    host = EngineHost()
    store = ConversationStore(scratch / "c.sqlite3")
    if spanish:
        earlier = store.create("Informe de alta, planta 3")
        store.add_message(earlier.id, "user", "Resuma el informe de alta en tres puntos.")
        store.add_message(earlier.id, "assistant", "- Ingresó por …\n- Tratado con …\n- Revisión en 2 semanas")
    else:
        earlier = store.create("Discharge summary, ward 3")
        store.add_message(earlier.id, "user", "Summarise the discharge note in three bullet points.")
        store.add_message(earlier.id, "assistant", "- Admitted for …\n- Treated with …\n- Follow-up in 2 weeks")
    window = MainWindow(host, store, AppSettings(max_new_tokens=160, language=language))
    window.conversations.refresh()
    window.resize(*size)
    window.show()
    # The panel as the window opens at this size on a screen of this size (resized before it was shown, the
    # dock kept the width it was given for the default size).
    window.resizeDocks([window.privacy], [panel_width(size[0])], Qt.Orientation.Horizontal)
    if metrics:
        window.metrics.show()
        window.metrics.raise_()
    grabbed = asyncio.Event()

    def grab_when_mid_answer(_number: int, text: str) -> None:
        if len(text) >= GRAB_AT_CHARS and not grabbed.is_set():
            window.metrics.redraw()
            app.processEvents()
            _save(window, out)
            if privacy is not None:
                _save(window.privacy, privacy)
            grabbed.set()

    window.chat_pane.signals.text.connect(grab_when_mid_answer)

    async def run() -> None:
        await window.ensure_engine()
        await window.chat_pane.send_prompt(QUESTION_ES if spanish else QUESTION)
        if settings is not None:
            dialog = window.open_settings()
            for _ in range(20):  # let it size the model's depths
                await asyncio.sleep(0.1)
                app.processEvents()
            _save(dialog, settings)
            dialog.tabs.setCurrentIndex(1)  # the model and its depths, the admin's table
            app.processEvents()
            _save(dialog, settings.with_name(f"{settings.stem}-depth.png"))
            dialog.reject()
        window.close()

    qasync.run(run())
    if not grabbed.is_set():
        print("the answer ended before the screenshot point", file=sys.stderr)
        return 1
    print(f"saved {out}")
    return 0


def _save(widget, out: Path) -> None:
    from PySide6.QtCore import QPoint, QRect

    out.parent.mkdir(parents=True, exist_ok=True)
    window = widget.window()  # a panel is cut out of its window's picture (winId() would make it a native window)
    picture = window.screen().grabWindow(window.winId()) if os.environ.get("QT_QPA_PLATFORM") == "xcb" else None
    if picture is None or picture.isNull():
        picture = window.grab()
    if widget is not window:
        picture = picture.copy(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size()))
    picture.save(str(out))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Screenshot the desktop app mid-answer.")
    parser.add_argument("out", nargs="?", type=Path, default=Path("docs/images/app.png"), help="PNG to write")
    parser.add_argument("--size", default="1440x900", help="window size, WIDTHxHEIGHT (default 1440x900)")
    parser.add_argument("--metrics", action="store_true", help="show the live metrics panel")
    parser.add_argument("--settings", type=Path, help="also save the settings panel to this PNG")
    parser.add_argument("--font-scale", type=float, default=1.0, help="the application font times this (1.5: 150 %%)")
    parser.add_argument("--privacy", type=Path, help="also save the Privacy panel alone to this PNG")
    parser.add_argument("--language", choices=("system", "en", "es"), default="system", help="the window's language")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    sys.exit(main(args.out, (width, height), args.metrics, args.settings, args.font_scale, args.privacy, args.language))
