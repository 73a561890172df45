"""Render the desktop app mid-conversation and save a screenshot for the README.

    packaging/screenshot.sh docs/images/app.png      # a real X window under Xvfb (what the README shows)
    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py out.png   # no X server at all

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


def main(out: Path) -> int:
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
    window.resize(1440, 900)
    window.show()
    window.metrics.raise_()  # the picture shows the live plots (the app opens on the Privacy tab)
    grabbed = asyncio.Event()

    def grab_when_mid_answer(_number: int, text: str) -> None:
        if len(text) >= GRAB_AT_CHARS and not grabbed.is_set():
            window.metrics.redraw()
            app.processEvents()
            out.parent.mkdir(parents=True, exist_ok=True)
            screen = window.screen()
            picture = screen.grabWindow(window.winId()) if os.environ.get("QT_QPA_PLATFORM") == "xcb" else None
            (picture if picture is not None and not picture.isNull() else window.grab()).save(str(out))
            grabbed.set()

    window.chat_pane.signals.text.connect(grab_when_mid_answer)

    async def run() -> None:
        await window.ensure_engine()
        await window.chat_pane.send_prompt(QUESTION)
        window.close()

    qasync.run(run())
    if not grabbed.is_set():
        print("the answer ended before the screenshot point", file=sys.stderr)
        return 1
    print(f"saved {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/app.png")))
