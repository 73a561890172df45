"""`splitchat --self-test`: prove an installed app works end to end, without a display or user data.

It opens the real main window offscreen, sends one prompt through the embedded worker process exactly
as a person would, and checks the answer's tokens against the same model run whole in this process.
Exit status 0 only when they match. Installers run it after building; IT can run it after deploying.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

PROMPT = "Name three colours."
NEW_TOKENS = 12


def run_self_test() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_API", "pyside6")
    scratch = Path(tempfile.mkdtemp(prefix="splitchat-self-test-"))
    os.environ["SPLITCHAT_CONFIG_DIR"] = str(scratch / "config")  # never the user's settings or chats
    os.environ["SPLITCHAT_DATA_DIR"] = str(scratch / "data")
    os.environ["SPLITCHAT_POLICY"] = str(scratch / "no-policy.json")

    import qasync
    from PySide6.QtWidgets import QApplication

    from app.data.conversations import ConversationStore
    from app.data.settings import AppSettings
    from app.host import EngineHost, Role, Turn
    from app.ui.gc_guard import GuiThreadCollector
    from app.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(["splitchat-self-test"])
    collector = GuiThreadCollector()
    host = EngineHost()
    window = MainWindow(host, ConversationStore(scratch / "c.sqlite3"), AppSettings(max_new_tokens=NEW_TOKENS))
    outcome: dict = {}

    async def run() -> None:
        try:
            await window.ensure_engine()
            answer = await window.chat_pane.send_prompt(PROMPT)
            if answer is None:
                outcome["error"] = window.chat_pane.error.text()
                return
            outcome["split"] = list(window.chat_pane.last_reply.tokens)
            outcome["whole"] = await host.whole_model_tokens([Turn(Role.USER, PROMPT)], NEW_TOKENS)
            outcome["text"] = answer
        except Exception as exc:  # reported, never a traceback for IT to decode
            outcome["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            window.close()

    qasync.run(run())
    collector.stop()
    del app
    if "error" in outcome:
        print(f"splitchat self-test FAILED: {outcome['error']}", file=sys.stderr)
        return 1
    if outcome["split"] != outcome["whole"]:
        print(
            f"splitchat self-test FAILED: split tokens {outcome['split']} != whole-model tokens {outcome['whole']}",
            file=sys.stderr,
        )
        return 1
    print(
        f"splitchat self-test passed: {len(outcome['split'])} tokens through the local worker process matched "
        f"the whole model ({outcome['text']!r})"
    )
    return 0
