"""Render the desktop app with a real conversation and save a screenshot for the README.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot.py docs/images/app.png

Uses throwaway settings and conversation folders; the model cache is the normal one.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

PROMPT = "A patient's note says: 'BP 150/95, on lisinopril 10 mg.' In two sentences, what should I check next?"


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
    from app.engine.host import EngineHost
    from app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(["splitchat"])
    host = EngineHost()
    window = MainWindow(host, ConversationStore(scratch / "c.sqlite3"), AppSettings(max_new_tokens=96))
    window.resize(1440, 900)
    window.show()

    async def run() -> None:
        await window.ensure_engine()
        await window.send_prompt(PROMPT)
        await asyncio.sleep(0.6)  # one metrics refresh
        window.metrics.redraw()
        out.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(out))
        window.close()

    qasync.run(run())
    print(f"saved {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/app.png")))
