"""Conversations in a local SQLite file, written message by message so a crash loses nothing shown.

An assistant message is inserted when its first token arrives and updated while it streams; the
``complete`` flag tells a finished answer from one cut short, and ``ending`` says how it ended (see
``ENDINGS``) so the window and an export can tell a reader why it stops where it does. Messages hold what the
user typed and read — the originals. A pseudonymised conversation's mapping from identifiers to the
stand-ins the model read is kept in its row (``pseudonyms``), on this computer only, and goes with it when
it is deleted.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from app.data.private_files import make_private, private_folder

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    pseudonyms TEXT
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
    content TEXT NOT NULL,
    complete INTEGER NOT NULL DEFAULT 1,
    created REAL NOT NULL,
    ending TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
"""
_COLUMNS = "id, title, created, updated"  # a Conversation's fields; the mapping is read on its own
_COLUMNS_OF_C = "c.id, c.title, c.created, c.updated"
ROLE_TITLES = {"system": "System", "user": "You", "assistant": "Assistant"}
# How an answer ended, as the reader is told: "" is a finished answer, or one still being written (or cut
# by a crash) when it is not complete. The words are shared by the window and the Markdown export.
ENDINGS = {
    "length": "cut at the longest-answer limit (Settings → Decoding)",
    "stopped": "stopped before the end",
    "repeating": "stopped: the answer was repeating itself",
    "lost": "cut off: the connection to the worker was lost",
    "failed": "cut off by an error",
}
UNFINISHED = "unfinished: splitchat closed before the end"


def ending_note(complete: bool, ending: str, words: ExportWords | None = None) -> str:
    """What to tell the reader about where an answer stops ("" for an answer that simply finished), in
    ``words``' language (English by default)."""
    words = words or ENGLISH
    if ending in ENDINGS:
        return words.endings.get(ending, ENDINGS[ending])
    return "" if complete else words.unfinished


@dataclass(frozen=True)
class ExportWords:
    """The words a Markdown export writes around the messages, in the reader's language. This layer does
    not translate (it does not import Qt): the UI passes them translated (app/ui/conversation_export.export_words);
    the defaults are the English, for the command line and the tests."""

    roles: Mapping[str, str] = field(default_factory=lambda: dict(ROLE_TITLES))
    endings: Mapping[str, str] = field(default_factory=lambda: dict(ENDINGS))
    unfinished: str = UNFINISHED
    exported: str = "Exported from splitchat; started {created}."  # {created}: the date and time, ISO


ENGLISH = ExportWords()


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str
    created: float
    updated: float


@dataclass(frozen=True)
class Message:
    id: int
    conversation_id: int
    role: str
    content: str
    complete: bool
    created: float
    ending: str = ""  # a key of ENDINGS, or ""

    @property
    def note(self) -> str:
        return ending_note(self.complete, self.ending)


class ConversationStore:
    """All reads and writes of the conversations file; each write is committed at once."""

    def __init__(self, path: Path):
        self.path = Path(path)
        private_folder(self.path.parent)
        self._db = sqlite3.connect(self.path)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        # Deleted text is overwritten with zeros in the file rather than left in free pages.
        self._db.execute("PRAGMA secure_delete = ON")
        self._db.execute("PRAGMA journal_mode = WAL")  # a crash mid-write keeps every committed message
        # SQLite gives its write-ahead log and index the database file's permissions when it creates them.
        make_private(self.path, *self._side_files())
        self._db.executescript(SCHEMA)
        columns = {row["name"] for row in self._db.execute("PRAGMA table_info(conversations)")}
        if "pseudonyms" not in columns:  # a file written before conversations kept their mapping
            self._db.execute("ALTER TABLE conversations ADD COLUMN pseudonyms TEXT")
        if "ending" not in {row["name"] for row in self._db.execute("PRAGMA table_info(messages)")}:
            self._db.execute("ALTER TABLE messages ADD COLUMN ending TEXT NOT NULL DEFAULT ''")
        self._db.commit()

    def close(self) -> None:
        self._db.close()

    def create(self, title: str = "New conversation") -> Conversation:
        now = time.time()
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO conversations (title, created, updated) VALUES (?, ?, ?)", (title, now, now)
            )
        return Conversation(cursor.lastrowid, title, now, now)

    def get(self, conversation_id: int) -> Conversation:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        if row is None:
            raise KeyError(f"no conversation {conversation_id}")
        return Conversation(**dict(row))

    def list(self, search: str = "") -> list[Conversation]:
        """Newest first; ``search`` matches titles and message text, case-insensitively."""
        if search:
            pattern = f"%{_escaped(search)}%"
            rows = self._db.execute(
                f"""SELECT DISTINCT {_COLUMNS_OF_C} FROM conversations c
                   LEFT JOIN messages m ON m.conversation_id = c.id
                   WHERE c.title LIKE ? ESCAPE '\\' OR m.content LIKE ? ESCAPE '\\'
                   ORDER BY c.updated DESC, c.id DESC""",
                (pattern, pattern),
            )
        else:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM conversations ORDER BY updated DESC, id DESC")
        return [Conversation(**dict(row)) for row in rows]

    def rename(self, conversation_id: int, title: str) -> None:
        title = title.strip()
        if not title:
            raise ValueError("a conversation needs a title")
        with self._db:
            self._db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def pseudonyms(self, conversation_id: int) -> str | None:
        """The conversation's identifier mapping as saved (None when it was never pseudonymised)."""
        row = self._db.execute("SELECT pseudonyms FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        if row is None:
            raise KeyError(f"no conversation {conversation_id}")
        return row["pseudonyms"]

    def set_pseudonyms(self, conversation_id: int, mapping: str) -> None:
        with self._db:
            self._db.execute("UPDATE conversations SET pseudonyms = ? WHERE id = ?", (mapping, conversation_id))

    def delete(self, conversation_id: int) -> None:
        """Delete a conversation and leave its text nowhere on disk: zeroed in the file (secure_delete),
        and the write-ahead log, which still holds the pages as they were, copied back and emptied."""
        with self._db:
            self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        self._empty_the_log()

    def _empty_the_log(self) -> None:
        """Copy the write-ahead log back into the (zeroed) file and empty it: until a checkpoint the log
        still holds every version of the pages a deletion just zeroed, streamed drafts of an answer too."""
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _side_files(self) -> list[Path]:
        return [self.path.with_name(self.path.name + suffix) for suffix in ("-wal", "-shm")]

    def add_message(
        self, conversation_id: int, role: str, content: str, complete: bool = True, ending: str = ""
    ) -> Message:
        _check_ending(ending)
        now = time.time()
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO messages (conversation_id, role, content, complete, created, ending) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (conversation_id, role, content, int(complete), now, ending),
            )
            self._db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id))
        return Message(cursor.lastrowid, conversation_id, role, content, complete, now, ending)

    def update_message(self, message_id: int, content: str, complete: bool, ending: str = "") -> None:
        _check_ending(ending)
        with self._db:
            self._db.execute(
                "UPDATE messages SET content = ?, complete = ?, ending = ? WHERE id = ?",
                (content, int(complete), ending, message_id),
            )

    def delete_from(self, conversation_id: int, message_id: int) -> None:
        """Remove a message and everything after it (regenerate replaces the last answer), leaving the
        removed text nowhere on disk, as ``delete`` does."""
        with self._db:
            self._db.execute(
                "DELETE FROM messages WHERE conversation_id = ? AND id >= ?", (conversation_id, message_id)
            )
        self._empty_the_log()

    def messages(self, conversation_id: int) -> list[Message]:
        rows = self._db.execute(
            "SELECT * FROM messages WHERE conversation_id = ? ORDER BY id", (conversation_id,)
        ).fetchall()
        return [Message(**{**dict(row), "complete": bool(row["complete"])}) for row in rows]

    def export_markdown(self, conversation_id: int, words: ExportWords | None = None) -> str:
        """The conversation as a Markdown document, messages in order, unfinished answers marked; its
        headings and notes in ``words``' language (English by default)."""
        words = words or ENGLISH
        conversation = self.get(conversation_id)
        created = time.strftime("%Y-%m-%d %H:%M", time.localtime(conversation.created))
        parts = [f"# {conversation.title}", "", f"_{words.exported.format(created=created)}_", ""]
        for message in self.messages(conversation_id):
            role = words.roles.get(message.role, ROLE_TITLES[message.role])
            parts += [f"## {role}", "", message.content.rstrip(), ""]
            note = ending_note(message.complete, message.ending, words)
            if note:
                parts += [f"_({note})_", ""]
        return "\n".join(parts)


def _check_ending(ending: str) -> None:
    if ending and ending not in ENDINGS:
        raise ValueError(f"unknown message ending {ending!r}")


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
