"""Render the desktop app mid-conversation and save a screenshot for the README.

    packaging/screenshot.sh docs/images/app.png      # a real X window under Xvfb (what the README shows)
    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py out.png   # no X server at all
    ... scripts/screenshot.py out.png --size 1366x768 --metrics --settings settings.png   # a review's set

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
GRAB_AT_CHARS = 140  # mid-answer


def main(out: Path, size: tuple[int, int] = (1440, 900), metrics: bool = False, settings: Path | None = None) -> int:
    scratch = Path(tempfile.mkdtemp(prefix="splitchat-shot-"))
    for name in ("CONFIG", "DATA"):
        os.environ[f"SPLITCHAT_{name}_DIR"] = str(scratch / name.lower())
    os.environ["SPLITCHAT_POLICY"] = str(scratch / "policy.json")
    os.environ.setdefault("QT_API", "pyside6")
    import qasync
    from PySide6.QtWidgets import QApplication

    from app.data.conversations import ConversationStore
    from app.data.settings import AppSettings
    from app.host import EngineHost
    from app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(["splitchat"])
    host = EngineHost()
    store = ConversationStore(scratch / "c.sqlite3")
    earlier = store.create("Discharge summary, ward 3")
    store.add_message(earlier.id, "user", "Summarise the discharge note in three bullet points.")
    store.add_message(earlier.id, "assistant", "- Admitted for …\n- Treated with …\n- Follow-up in 2 weeks")
    window = MainWindow(host, store, AppSettings(max_new_tokens=160))
    window.conversations.refresh()
    window.resize(*size)
    window.show()
    if metrics:
        window.metrics.show()
        window.metrics.raise_()
    grabbed = asyncio.Event()

    def grab_when_mid_answer(_number: int, text: str) -> None:
        if len(text) >= GRAB_AT_CHARS and not grabbed.is_set():
            window.metrics.redraw()
            app.processEvents()
            _save(window, out)
            grabbed.set()

    window.chat_pane.signals.text.connect(grab_when_mid_answer)

    async def run() -> None:
        await window.ensure_engine()
        await window.chat_pane.send_prompt(QUESTION)
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
    out.parent.mkdir(parents=True, exist_ok=True)
    picture = widget.screen().grabWindow(widget.winId()) if os.environ.get("QT_QPA_PLATFORM") == "xcb" else None
    (picture if picture is not None and not picture.isNull() else widget.grab()).save(str(out))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Screenshot the desktop app mid-answer.")
    parser.add_argument("out", nargs="?", type=Path, default=Path("docs/images/app.png"), help="PNG to write")
    parser.add_argument("--size", default="1440x900", help="window size, WIDTHxHEIGHT (default 1440x900)")
    parser.add_argument("--metrics", action="store_true", help="show the live metrics panel")
    parser.add_argument("--settings", type=Path, help="also save the settings panel to this PNG")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    sys.exit(main(args.out, (width, height), args.metrics, args.settings))
