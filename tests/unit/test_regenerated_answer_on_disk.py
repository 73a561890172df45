"""A regenerated answer leaves its text nowhere on disk: neither the database file nor its write-ahead log
(finding 10a). Regenerate removes the last answer with ``delete_from``, as the chat pane does."""

from __future__ import annotations

from app.data.conversations import ConversationStore


def test_a_regenerated_answers_text_is_in_neither_the_database_nor_its_log(tmp_path):
    secret = "Zqvx-Kowalczyk-4417"
    path = tmp_path / "data" / "conversations.sqlite3"
    store = ConversationStore(path)
    conversation = store.create("a question")
    store.add_message(conversation.id, "user", "What did the scan show?")
    answer = store.add_message(conversation.id, "assistant", "", complete=False)
    streamed = ""
    for word in f"The scan of {secret} shows nothing unusual .".split():  # written as it streams
        streamed += word + " "
        store.update_message(answer.id, streamed, complete=False)
    store.update_message(answer.id, streamed, complete=True)

    store.delete_from(conversation.id, answer.id)  # Regenerate
    store.add_message(conversation.id, "assistant", "A different answer.")

    wal = path.with_name(path.name + "-wal")
    for file in (path, wal):  # read while the store is open, as the app leaves it
        assert not file.exists() or secret.encode() not in file.read_bytes(), file.name
    assert [m.content for m in store.messages(conversation.id)][-1] == "A different answer."
    store.close()
