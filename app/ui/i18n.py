"""The app's language: Qt's translation system, the Spanish catalogue, and numbers and dates as the locale writes them.

Every string a user sees is an English source text passed through ``translate(context, text)`` — Qt's
``QCoreApplication.translate``, under the one name ``pyside6-lupdate`` finds in Python — or, for a
module-level constant, marked with ``QT_TRANSLATE_NOOP(context, text)`` and translated where it is shown.
``pyside6-lupdate`` collects them into ``app/resources/i18n/splitchat_es.ts`` (kept in git, edited in Qt
Linguist or by hand); ``pyside6-lrelease`` compiles it to the ``.qm`` file Qt loads. The ``.qm`` is a
build product: ``make setup`` and the installers compile it beside the ``.ts``, and a checkout without
it (or with one older than the ``.ts``) compiles it into the user cache at start-up when PySide6's
lrelease is there. Without any ``.qm`` the app runs in English.

Strings made below the UI (the engine, the data layer) never pass through Qt — those layers do not import
it — so the UI maps their typed values (error codes, endings, progress steps) to its own translated text
(``engine_text``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from platformdirs import user_cache_dir
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QDate, QDateTime, QLibraryInfo, QLocale, QTranslator

from app.data.settings import LANGUAGES
from app.resources import RESOURCES

__all__ = ["QT_TRANSLATE_NOOP", "translate"]

translate = QCoreApplication.translate  # the name lupdate recognises: translate("Context", "source text")
CATALOGUE_DIR = RESOURCES / "i18n"
TRANSLATED = ("es",)  # the languages a catalogue exists for; anything else is shown in English
LANGUAGE_NAMES = {  # the settings panel's choices, each named in its own language (a reader of neither finds theirs)
    "system": QT_TRANSLATE_NOOP("Language", "As the system ({language})"),
    "en": "English",
    "es": "Español",
}
_installed: list[QTranslator] = []  # kept alive: Qt holds only a pointer to an installed translator


def catalogue_source(language: str) -> Path:
    return CATALOGUE_DIR / f"splitchat_{language}.ts"


def lrelease() -> Path | None:
    """PySide6's own lrelease (its wheel ships the Qt tools beside the bindings), or None."""
    import PySide6

    package = Path(PySide6.__file__).parent
    for candidate in (package / "lrelease", package / "lrelease.exe", package / "Qt" / "libexec" / "lrelease"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("pyside6-lrelease")
    return Path(found) if found else None


def compile_catalogue(source: Path, target: Path) -> bool:
    """``source`` (.ts) compiled to ``target`` (.qm) with lrelease; False where there is none or it fails."""
    tool = lrelease()
    if tool is None or not source.is_file():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial.qm")
    done = subprocess.run(
        [str(tool), "-silent", str(source), "-qm", str(partial)], capture_output=True, timeout=60, check=False
    )
    if done.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        return False
    os.replace(partial, target)  # a reader never loads a half-written catalogue
    return True


def catalogue(language: str) -> Path | None:
    """The compiled catalogue for ``language``: the one built beside the .ts (a frozen install ships only
    that), else one compiled from the .ts into the user cache, named by the .ts's content; None if neither."""
    source = catalogue_source(language)
    built = source.with_suffix(".qm")
    if built.is_file() and (not source.is_file() or built.stat().st_mtime >= source.stat().st_mtime):
        return built
    if not source.is_file():
        return None
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    cached = _cache_root() / "i18n" / f"splitchat_{language}-{digest}.qm"
    if cached.is_file() or compile_catalogue(source, cached):
        return cached
    return None


def _cache_root() -> Path:
    # The engine's cache folder (app/engine/source/locations.py), found here without importing the engine:
    # the language is set before the splash screen, seconds before torch is imported.
    override = os.environ.get("SPLITCHAT_CACHE_DIR")
    return Path(override) if override else Path(user_cache_dir("splitchat", appauthor=False))


def chosen_locale(language: str) -> QLocale:
    """The locale for the settings' choice: the system's, or the chosen language (in the system's country
    where it speaks it, so an es_MX desk keeps its own number and date forms)."""
    system = QLocale.system()
    if language not in LANGUAGES or language == "system":
        return system
    if system.name().split("_")[0] == language:
        return system
    return QLocale("en_US" if language == "en" else f"{language}_ES")


def ui_language(locale: QLocale) -> str:
    """The catalogue ``locale`` reads ("en" where splitchat has none of its language)."""
    code = locale.name().split("_")[0]
    return code if code in TRANSLATED else "en"


def install_language(language: str = "system", app: QCoreApplication | None = None) -> str:
    """Use the chosen language from now on: numbers, dates and Qt's own dialogs follow its locale, and
    splitchat's strings its catalogue. Returns the language the strings are in ("en" when the catalogue
    cannot be found: English is the source text, so nothing is ever untranslated)."""
    app = app or QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    locale = chosen_locale(language)
    QLocale.setDefault(locale)
    shown = ui_language(locale)
    if shown == "en":
        return "en"
    found = catalogue(shown)
    ours = QTranslator(app)
    if found is None or not ours.load(str(found)):
        return "en"
    qt = QTranslator(app)  # Qt's own words: Save, Cancel, Yes, No, a text field's menu, the file dialogs
    if qt.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    app.installTranslator(ours)
    _installed.append(ours)
    return shown


def language_name(language: str) -> str:
    """A choice of the settings panel, as shown there."""
    if language == "system":
        native = QLocale.system().nativeLanguageName()  # "" for the C locale, which has no language
        if not native:
            return translate("Language", "As the system")
        return translate("Language", LANGUAGE_NAMES["system"]).format(language=native)
    return LANGUAGE_NAMES[language]


# -- numbers and dates, as the user's locale writes them --------------------------------------------------
def number(value: float, decimals: int = 0) -> str:
    """``value`` with the locale's digit grouping and decimal sign: 12,345.5 or 12.345,5."""
    locale = QLocale()
    if decimals == 0:
        return locale.toString(int(round(value)))
    return locale.toString(float(value), "f", decimals)


def _date_format(locale: QLocale, with_time: bool) -> str:
    """The locale's short form with the year in full (a two-digit year misreads in a record), ISO in the
    C locale (no language: its own short form is "30 11 2026")."""
    if locale.language() == QLocale.Language.C:
        return "yyyy-MM-dd HH:mm" if with_time else "yyyy-MM-dd"
    short = QLocale.FormatType.ShortFormat
    form = locale.dateTimeFormat(short) if with_time else locale.dateFormat(short)
    return form if "yyyy" in form else form.replace("yy", "yyyy")


def short_date(iso_or_seconds: str | float) -> str:
    """A date (an ISO string, or seconds since the epoch) as the user's locale writes it: 11/30/2026, 30/11/2026."""
    if isinstance(iso_or_seconds, str):
        day = QDate.fromString(iso_or_seconds[:10], "yyyy-MM-dd")
        if not day.isValid():
            return iso_or_seconds[:10]
    else:
        day = QDateTime.fromSecsSinceEpoch(int(iso_or_seconds)).date()
    locale = QLocale()
    return locale.toString(day, _date_format(locale, with_time=False))


def date_time(seconds: float) -> str:
    """A moment (seconds since the epoch) as the user's locale writes a date and time."""
    locale = QLocale()
    return locale.toString(QDateTime.fromSecsSinceEpoch(int(seconds)), _date_format(locale, with_time=True))
