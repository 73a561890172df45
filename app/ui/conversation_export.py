"""A conversation exported as Markdown: its words in the window's language, a file name any platform takes,
the folder offered first."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from app.data.conversations import ExportWords
from app.ui.chat_view import ROLE_NAMES, role_name
from app.ui.i18n import QT_TRANSLATE_NOOP, translate
from app.ui.messages import ENDING_TEXT, ending_text

# The export leaves splitchat's owner-only data folder: say so where the file is chosen.
EXPORT_CAPTION = QT_TRANSLATE_NOOP(
    "ChatPane", "Export conversation — the file is plain text, not protected: anyone who can open it can read it"
)
# The export's line under the title (app/data/conversations.ExportWords.exported in English).
EXPORTED = QT_TRANSLATE_NOOP("ChatPane", "Exported from splitchat; started {created}.")
_UNSAFE_IN_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def export_words() -> ExportWords:
    """The Markdown export's headings and notes in the window's language: the data layer writes the words
    it is given (it does not translate), the same ones the bubbles show."""
    return ExportWords(
        roles={role: role_name(role) for role in ROLE_NAMES},
        endings={ending: ending_text(False, ending) for ending in ENDING_TEXT},
        unfinished=ending_text(False, ""),
        exported=translate("ChatPane", EXPORTED),
    )


def safe_file_name(title: str) -> str:
    """A conversation's title as one file name on Windows and Linux: no folders, no reserved characters."""
    name = " ".join(_UNSAFE_IN_NAMES.sub(" ", title).split()).strip(" .")
    return name[:100].strip(" .") or translate("ChatPane", "conversation")


def export_folder() -> Path:
    """The user's documents folder (the home folder where the platform names none)."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents else Path.home()
