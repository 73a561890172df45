"""The app in Spanish (issue 33, 10): every string the user sees goes through Qt's translation system and
the Spanish catalogue translates all of them — real widgets, offscreen, their whole tree walked."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QSplashScreen,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from app.data.conversations import ENDINGS, ConversationStore
from app.data.settings import AppSettings, ProviderProfile
from app.host import ModelText
from app.ui.i18n import LANGUAGE_NAMES, catalogue_source, install_language, lrelease, number, short_date
from app.ui.main_window import MainWindow

TS = catalogue_source("es")
ROOT = Path(__file__).resolve().parents[2]
REMOTE = AppSettings(
    profiles=(ProviderProfile("clínica", "wss://gpu.example.org:8765", review_before_sending=True),),
    active_profile="clínica",
)
# Words of English that Spanish never writes: one of them in a string means an untranslated phrase, even one
# composed at run time that no catalogue entry matches whole.
ENGLISH = frozenset(
    """the and of to is are was were be been this that these with for from your you not can will would
    only here there it its on at by an or has have which what when while before after each every than
    then into yet more less also but been being does done don't isn't
    settings send cancel save details copy stop delete rename new privacy provider model depth export
    worker computer layers language decoding memory connection test set none""".split()
)
# Names that are the same in every language (and the language choices, each named in its own).
NAMES = frozenset({"English", "Español", "splitchat", "Markdown", "SmolLM2", "Llama", "GPU", "MLP", "KV"})


@pytest.fixture
def spanish(qapp):
    """The app as a Spanish-speaking user starts it; the system's language again afterwards."""
    if lrelease() is None and not TS.with_suffix(".qm").is_file():
        pytest.skip("neither a compiled catalogue nor PySide6's lrelease to compile one")
    assert install_language("es", qapp) == "es"
    yield
    install_language("system", qapp)
    QLocale.setDefault(QLocale.system())


# -- the catalogue ---------------------------------------------------------------------------------------
def catalogue_messages(path: Path = TS) -> list[tuple[str, str, ET.Element]]:
    """(context, source, translation element) of every message of a .ts file."""
    root = ET.parse(path).getroot()
    return [
        (context.findtext("name"), message.findtext("source"), message.find("translation"))
        for context in root.iter("context")
        for message in context.iter("message")
    ]


def english_sources() -> set[str]:
    """The English source texts Spanish writes otherwise, as a user reads them (no & accelerators)."""
    return {
        plain(source)
        for _, source, translation in catalogue_messages()
        if plain(translation.text or "") != plain(source) and "{" not in source
    }


PLACEHOLDER = re.compile(r"\{[a-z_]+(?:![rsa])?\}")  # {name}, and {name!r} for a value quoted as Python does
TAG = re.compile(r"</?[a-z]+[^>]*>")


def test_every_message_of_the_catalogue_is_translated_with_its_placeholders_tags_and_accelerator():
    messages = catalogue_messages()
    assert len(messages) > 250
    for context, source, translation in messages:
        text = translation.text or ""
        where = f"{context}: {source!r}"
        assert translation.get("type") not in ("unfinished", "obsolete", "vanished"), where
        assert text.strip(), where
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(source)), where
        assert sorted(TAG.findall(text)) == sorted(TAG.findall(source)), where
        assert text.count("&") == source.count("&"), where  # a menu's or a button's keyboard letter
        assert text.count("\n") == source.count("\n"), where


def test_the_catalogue_holds_every_string_the_code_marks_for_translation(tmp_path):
    """Made again from the code by lupdate, the catalogue has nothing new: a string added without its
    Spanish fails here, not in front of a user."""
    lupdate = ROOT / ".venv" / "bin" / "pyside6-lupdate"
    if not lupdate.is_file():
        pytest.skip("PySide6's lupdate is not installed in .venv")
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(path) for path in (ROOT / "app" / "ui").glob("*.py"))
    subprocess.run([str(lupdate), *sources, "-ts", str(fresh), "-silent"], check=True, capture_output=True)
    marked = {(context, source) for context, source, _ in catalogue_messages(fresh)}
    kept = {(context, source) for context, source, _ in catalogue_messages()}
    assert marked - kept == set(), "run `make translations` and translate the new strings"
    assert kept - marked == set(), "strings no longer in the code: run `make translations`"


def test_the_ui_words_for_the_data_layers_endings_are_the_same_ones():
    from app.ui.messages import ENDING_TEXT

    assert ENDING_TEXT == ENDINGS  # the bubble and the Markdown export say the same in English


def test_the_ui_words_for_the_data_layers_problems_and_export_are_the_same_english():
    """Each settings and keyring problem the data layer names has the UI's text, in the same English the
    logs and the command line read; so has each word of the Markdown export."""
    from app.data import credentials, settings
    from app.data.conversations import ExportWords
    from app.ui import data_text
    from app.ui.conversation_export import EXPORTED

    assert data_text.SETTINGS_TEXT == settings.SETTINGS_MESSAGES
    assert set(data_text.SETTINGS_TEXT) == set(settings.SettingsProblem)
    assert set(data_text.TYPE_WORDS) == set(settings._TYPE_WORDS.values()) == set(data_text.TYPE_WORDS.values())
    assert data_text.CREDENTIAL_TEXT == credentials.CREDENTIAL_MESSAGES
    assert set(data_text.CREDENTIAL_TEXT) == set(credentials.CredentialProblem)
    assert data_text.INSTALL_A_STORE == credentials.INSTALL_A_STORE
    assert EXPORTED == ExportWords().exported


# -- the widget walk ---------------------------------------------------------------------------------
def plain(text: str) -> str:
    """A string as the user reads it: no markup, no keyboard-letter ampersands, spaces collapsed."""
    text = TAG.sub(" ", text).replace("&nbsp;", " ").replace("&&", "\0").replace("&", "").replace("\0", "&")
    return " ".join(text.split())


def shown_strings(widget: QWidget) -> list[tuple[str, str]]:
    """(what, text) of everything ``widget`` and its children show or say: texts, titles, tooltips,
    placeholders, items, headers, menus, accessible names and descriptions, plot titles and axes."""
    found: list[tuple[str, str]] = []

    def add(what: str, text: str | None) -> None:
        if text and text.strip():
            found.append((what, text))

    for child in [widget, *widget.findChildren(QWidget)]:
        kind = type(child).__name__
        add(f"{kind} tooltip", child.toolTip())
        add(f"{kind} accessible name", child.accessibleName())
        add(f"{kind} accessible description", child.accessibleDescription())
        if child.isWindow() or isinstance(child, QMainWindow):
            add(f"{kind} window title", child.windowTitle())
        if hasattr(child, "windowTitle") and type(child).__name__ == "QDockWidget":
            add("dock title", child.windowTitle())
        if isinstance(child, QLabel):
            add("label", child.text())
        elif isinstance(child, QAbstractButton):
            add("button", child.text())
        elif isinstance(child, QGroupBox):
            add("group box", child.title())
        elif isinstance(child, QLineEdit):
            add("placeholder", child.placeholderText())  # its text is the user's (a name, a path)
        elif isinstance(child, (QPlainTextEdit, QTextEdit)):
            add("placeholder", child.placeholderText())
        elif isinstance(child, QComboBox):
            for index in range(child.count()):
                add("combo item", child.itemText(index))
        elif isinstance(child, QTabWidget):
            for index in range(child.count()):
                add("tab", child.tabText(index))
                add("tab tooltip", child.tabToolTip(index))
        elif isinstance(child, QTableWidget):
            for column in range(child.columnCount()):
                header = child.horizontalHeaderItem(column)
                if header is not None:
                    add("table header", header.text())
                    add("table header tooltip", header.toolTip())
                for row in range(child.rowCount()):
                    item = child.item(row, column)
                    if item is not None:
                        add("table cell", item.text())
                        add("table cell tooltip", item.toolTip())
        elif isinstance(child, QListWidget):
            for row in range(child.count()):
                add("list item tooltip", child.item(row).toolTip())  # its text is a title the user chose
        elif isinstance(child, QMenu):
            add("menu", child.title())
        if type(child).__name__ == "PlotWidget":
            item = child.getPlotItem()
            add("plot title", item.titleLabel.text)
            for side in ("left", "bottom"):
                add("plot axis", item.getAxis(side).labelText)
            if item.legend is not None:
                for _, label in item.legend.items:
                    add("plot legend", label.text)
    if isinstance(widget, QMainWindow):
        for action in widget.menuBar().actions():
            add("menu", action.text())
            for item in action.menu().actions() if action.menu() else ():
                add("menu item", item.text())
    return found


def english_in(strings: list[tuple[str, str]], user_text: set[str] = frozenset()) -> list[str]:
    """The strings that are (or hold) English: a whole source text the catalogue translates, or a word no
    Spanish text uses. ``user_text``: what the test typed or named (a title, a provider)."""
    sources = english_sources()
    bad = []
    for what, text in strings:
        shown = plain(text)
        for mine in user_text:
            shown = shown.replace(mine, " ")
        if shown in sources:
            bad.append(f"{what}: {shown!r} (an untranslated catalogue string)")
            continue
        words = {word.lower() for word in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", shown) if word not in NAMES}
        english = sorted(words & ENGLISH)
        if english:
            bad.append(f"{what}: {shown!r} (English words: {', '.join(english)})")
    return bad


def open_window(qtbot, engine_host, tmp_path, settings: AppSettings) -> MainWindow:
    store = ConversationStore(tmp_path / "c.sqlite3")
    earlier = store.create("Informe de alta, planta 3")
    store.add_message(earlier.id, "user", "Resuma el informe.")
    store.add_message(earlier.id, "assistant", "El paciente…", complete=False, ending="stopped")
    window = MainWindow(engine_host, store, settings, owns_host=False)
    qtbot.addWidget(window)
    window.show()
    window.conversations.refresh(select=earlier.id)
    window.chat_pane.open_conversation(earlier.id)
    qtbot.waitUntil(lambda: window.isVisible() and len(window.chat_pane.chat_view.bubbles) == 2)
    return window


USER_TEXT = {"Informe de alta, planta 3", "Resuma el informe.", "El paciente…", "clínica", "wss://gpu.example.org:8765"}


async def test_in_spanish_no_english_string_is_visible_in_the_window_its_settings_and_every_dialog(
    qtbot, engine_host, tmp_path, spanish
):
    from PySide6.QtWidgets import QMessageBox

    from app.ui.app import policy_error_box, settings_notice_box, starting_splash
    from app.ui.review_dialog import ReviewDialog

    bad: list[str] = []
    for settings in (
        AppSettings(),
        REMOTE,
        replace(REMOTE, profiles=(replace(REMOTE.profiles[0], pseudonymise=False),)),
    ):
        window = open_window(
            qtbot, engine_host, tmp_path / settings.active_profile.replace("í", "i") or "here", settings
        )
        window.chat_pane.banner.details_button.click()  # the whole statement, and the button saying "Less"
        bad += english_in(shown_strings(window), USER_TEXT)
        window.chat_pane.banner.details_button.click()
        bad += english_in(shown_strings(window.chat_pane.banner), USER_TEXT)
        window.close()

    window = open_window(qtbot, engine_host, tmp_path / "dialogs", REMOTE)
    window.metrics.show()  # the live metrics' empty page and plots
    bad += english_in(shown_strings(window.metrics), USER_TEXT)
    dialog = window.open_settings()
    await dialog.model_page.inspect_task  # the bundled model, checked and sized as the panel opens
    assert dialog.model_page.model_facts.text().startswith("✓")
    for tab in range(dialog.tabs.count()):  # each tab shown, as the user goes through them
        dialog.tabs.setCurrentIndex(tab)
        QApplication.processEvents()
        bad += english_in(shown_strings(dialog), USER_TEXT)
    dialog.provider_page.provider.setCurrentIndex(0)  # the embedded worker: its own token text and tooltips
    bad += english_in(shown_strings(dialog), USER_TEXT)
    dialog.reject()

    async def hide(term: str) -> ModelText:
        return ModelText("Paciente: Juan Pérez", ((10, 20),))

    async def keep(stand_in: str):
        return None, ModelText("Paciente: Juan Pérez", ((10, 20),))

    review = ReviewDialog(ModelText("Paciente: Juan Pérez", ((10, 20),)), hide, keep, window)
    review.show()
    review.keep_clicked()  # nothing selected: it says what to select
    bad += english_in(shown_strings(review), USER_TEXT | {"Paciente: Juan Pérez"})
    review.reject()
    unreviewed = ReviewDialog(ModelText("Hola", ()), None, None, window)
    bad += english_in(shown_strings(unreviewed), USER_TEXT | {"Hola"})
    unreviewed.reject()
    boxes: list[QDialog] = [
        window.conversations.delete_confirmation("Informe de alta, planta 3"),
        window.conversations.rename_dialog("Informe de alta, planta 3"),
        policy_error_box(ValueError("política.json")),
        settings_notice_box("aviso"),
    ]
    for box in boxes:
        box.show()
        QApplication.processEvents()
        bad += english_in(shown_strings(box), USER_TEXT | {"política.json", "aviso"})
        box.reject()
    assert isinstance(boxes[0], QMessageBox)
    splash = starting_splash(QApplication.instance())
    bad += english_in([("splash", splash.message())])
    assert isinstance(splash, QSplashScreen)
    splash.close()
    window.close()
    assert bad == [], "\n".join(bad)


def test_the_statuses_endings_and_errors_an_answer_meets_are_spanish(qtbot, engine_host, tmp_path, spanish):
    from app.host import WorkerError
    from app.ui.engine_text import engine_text
    from app.ui.i18n import translate
    from app.ui.messages import WORKER_ADVICE, ending_text, explain
    from app.ui.streaming_answer import FINISHED_STATUS, READING

    said = [("status", translate("ChatPane", text)) for text in FINISHED_STATUS.values()]
    said += [("ending", ending_text(False, ending)) for ending in (*ENDINGS, "")]
    said += [(f"advice for {code}", " ".join(explain(WorkerError(code, "x")))) for code in WORKER_ADVICE]
    said += [("progress", engine_text("Converting the bundled model: converting tensor 57/272 blk.6.attn_q.weight"))]
    said += [
        ("notice", engine_text("Reconnected to a new worker session; it reads the conversation again before going on."))
    ]
    assert english_in(said) == []
    # Numbers in the user's locale: Spain groups thousands with a point.
    reading = translate("ChatPane", READING).format(done=number(12345), total=number(20000))
    assert reading == "Leyendo su mensaje: 12.345 de 20.000 tokens…"
    assert short_date("2026-11-29T10:00:00Z") == "29/11/2026"


def test_the_language_follows_the_system_locale_and_the_settings_choice(qapp):
    try:
        QLocale.setDefault(QLocale("es_ES"))
        assert install_language("en", qapp) == "en" and QLocale().name() == "en_US"
        assert QApplication.translate("ChatPane", "Send") == "Send"
        assert install_language("es", qapp) == "es" and QLocale().name().startswith("es")
        assert QApplication.translate("ChatPane", "Send") == "Enviar"
        assert set(LANGUAGE_NAMES) == {"system", "en", "es"}
    finally:
        install_language("system", qapp)
        QLocale.setDefault(QLocale.system())
    assert QApplication.translate("ChatPane", "Send") == "Send"  # the C locale of the test run: English


def test_a_checkout_without_a_compiled_catalogue_compiles_one_into_the_cache(tmp_path, monkeypatch):
    from app.ui import i18n

    if lrelease() is None:
        pytest.skip("PySide6's lrelease is not installed")
    shipped = tmp_path / "i18n"
    shipped.mkdir()
    (shipped / "splitchat_es.ts").write_bytes(TS.read_bytes())
    monkeypatch.setattr(i18n, "CATALOGUE_DIR", shipped)
    monkeypatch.setenv("SPLITCHAT_CACHE_DIR", str(tmp_path / "cache"))
    compiled = i18n.catalogue("es")
    assert compiled is not None and compiled.is_relative_to(tmp_path / "cache") and compiled.stat().st_size > 1000
    monkeypatch.setattr(i18n, "lrelease", lambda: None)  # and with no tool and no catalogue: English
    (shipped / "splitchat_es.ts").write_text(TS.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert i18n.catalogue("es") is None


# -- the data layer's refusals and the export, in the window's language ----------------------------------
def saved_in_vain(dialog) -> str:
    """Save pressed in the settings panel, refused: the panel stays open and says why."""
    from PySide6.QtWidgets import QDialogButtonBox

    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    QApplication.processEvents()
    assert dialog.result() == 0 and dialog.error.text()
    return dialog.error.text()


async def test_in_spanish_the_settings_panel_says_a_locked_setting_a_wrong_endpoint_and_a_keyring_refusal_in_spanish(
    qtbot, engine_host, tmp_path, spanish, isolated_user_state
):
    import json

    import keyring
    from keyring.backend import KeyringBackend
    from keyring.errors import KeyringError
    from keyrings.alt.file import PlaintextKeyring

    from app.data.settings import policy_path
    from app.ui.settings_dialog import SettingsDialog
    from tests.conftest import MemoryKeyring

    said: list[tuple[str, str]] = []
    # A policy locking the split depth, come after the settings were loaded: Save is refused.
    policy_path().write_text(json.dumps({"values": {"split": "6"}, "locked": ["split"]}), encoding="utf-8")
    dialog = SettingsDialog(AppSettings(), 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    locked = saved_in_vain(dialog)
    assert "'split'" in locked and "bloqueado" in locked
    said.append(("locked setting", locked))
    policy_path().unlink()

    # An endpoint that is not a worker's: refused on Save and by Test connection.
    dialog = SettingsDialog(REMOTE, 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.provider_page.endpoint.setText("http://gpu.example.org:8765")
    said.append(("invalid endpoint", saved_in_vain(dialog)))
    await dialog.provider_page.test_connection()
    assert dialog.provider_page.test_result.text().startswith("✗")
    said.append(("invalid endpoint, tested", dialog.provider_page.test_result.text()))

    # A keyring that refuses the token, and one that is not a system store (a file of keyrings.alt).
    class LockedKeyring(MemoryKeyring, KeyringBackend):
        def set_password(self, *_):
            raise KeyringError("colección bloqueada")

    plaintext = PlaintextKeyring()
    plaintext.file_path = str(tmp_path / "keyring_pass.cfg")
    for backend in (LockedKeyring(), plaintext):
        keyring.set_keyring(backend)
        dialog = SettingsDialog(REMOTE, 30, None, engine_host.probe)
        qtbot.addWidget(dialog)
        dialog.provider_page.token.setText("tok-77120")
        said.append((f"keyring refusal ({type(backend).__name__})", saved_in_vain(dialog)))
    keyring.set_keyring(isolated_user_state)
    assert "colección bloqueada" in said[-2][1] and "llavero" in said[-2][1] and "llavero" in said[-1][1]
    assert english_in(said, USER_TEXT | {"http://gpu.example.org:8765", "colección bloqueada"}) == []


def test_in_spanish_an_empty_token_and_an_unreadable_keyring_are_explained_in_spanish(spanish, monkeypatch):
    import keyring
    from keyring.backend import KeyringBackend
    from keyring.errors import KeyringError

    from app.data import credentials
    from app.ui.messages import explain
    from tests.conftest import MemoryKeyring

    said = []
    with pytest.raises(credentials.CredentialError) as empty:
        credentials.set_token("clínica", "   ")
    said.append(("empty token", " ".join(explain(empty.value))))

    class Unreadable(MemoryKeyring, KeyringBackend):
        def get_password(self, *_):
            raise KeyringError("sin acceso")

    monkeypatch.setattr(keyring, "get_keyring", Unreadable)
    with pytest.raises(credentials.CredentialError) as unreadable:
        credentials.get_token("clínica")
    said.append(("unreadable keyring", " ".join(explain(unreadable.value))))
    assert "vacío" in said[0][1] and "llavero" in said[1][1]
    assert english_in(said, {"sin acceso"}) == []


def test_in_spanish_a_broken_policy_is_said_in_spanish_in_its_message_box(qapp, spanish):
    import json

    from app.data.settings import PolicyError, load_settings, policy_path
    from app.ui.app import policy_error_box

    policy_path().write_text(json.dumps({"values": {"colour": "red"}}), encoding="utf-8")
    with pytest.raises(PolicyError) as broken:
        load_settings()
    box = policy_error_box(broken.value)
    box.show()
    QApplication.processEvents()
    shown = shown_strings(box)
    box.reject()
    assert any("colour" in text and "desconocidos" in text for _, text in shown)
    assert english_in(shown, {str(policy_path())}) == []


def test_in_spanish_a_broken_settings_file_is_said_in_spanish_in_its_message_box(qapp, spanish):
    from app.data.settings import broken_settings, config_dir, load_settings
    from app.ui.app import settings_notice_box

    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "settings.json").write_text('{"budget": "abc"}', encoding="utf-8")
    load_settings()
    notice = broken_settings()
    aside = next(p for p in config_dir().iterdir() if p.name.startswith("settings.broken-"))
    box = settings_notice_box(notice)
    box.show()
    QApplication.processEvents()
    shown = shown_strings(box)
    box.reject()
    assert any("'budget' debe ser un número entero" in text for _, text in shown)
    assert english_in(shown, {str(aside)}) == []


def test_in_spanish_an_exported_conversation_has_spanish_headings_and_notes(qtbot, engine_host, tmp_path, spanish):
    window = open_window(qtbot, engine_host, tmp_path, AppSettings())
    store = window.chat_pane.store
    conversation = window.chat_pane.conversation_id
    store.add_message(conversation, "user", "¿Y el alta?")
    store.add_message(conversation, "assistant", "Mañana.", complete=False)  # splitchat closed mid-answer
    path = tmp_path / "informe.md"
    window.chat_pane.export_conversation(path)
    window.close()
    text = path.read_text(encoding="utf-8")
    assert text.count("## Usted") == 2 and text.count("## Asistente") == 2, text
    assert "_(detenida antes del final)_" in text and "_(sin terminar: splitchat se cerró antes del final)_" in text
    lines = [("export", line.strip("#_ ")) for line in text.splitlines() if line.strip()]
    assert english_in(lines, USER_TEXT | {"¿Y el alta?", "Mañana."}) == []
