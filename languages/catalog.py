"""The translation catalogues, checked without GNU gettext.

``makemessages`` needs xgettext, which a bare machine lacks; the completeness
check (tests/languages/test_catalogue.py, run in CI) extracts the messages
itself with Babel's extractors, the same way ``makemessages`` does: templates go
through Django's ``templatize`` and are read as Python; Python modules as
Python; the ES modules under static/js as JavaScript, where ``t()`` and ``tn()``
(static/js/i18n.js) mark messages. Then every message must have a translation in
every language of ``settings.LANGUAGES`` with the same placeholders, and every
compiled ``.mo`` must match its ``.po``. ``compile_catalogues`` writes the ``.mo``
files with polib (``manage.py compilemessages`` is that too, docs/i18n.md).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polib
from babel.messages.extract import extract
from django.conf import settings
from django.utils.translation import to_locale
from django.utils.translation.template import templatize

# The apps whose Python modules hold messages (tests and migrations excluded).
PYTHON_PACKAGES = (
    "config",
    "accounts",
    "gameplay",
    "league",
    "bots",
    "notifications",
    "analysis",
    "community",
    "languages",
)
PYTHON_KEYWORDS: dict[str, tuple | None] = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "N_": None,  # gameplay.rules.meta.N_: the Django-free engines' marker
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
JS_KEYWORDS: dict[str, tuple | None] = {
    "t": None,
    "tn": (1, 2),
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,  # a word a board translates where it shows it: t(variable)
}
# The translator's marks that must survive: %(name)s, %s / %d and {name}.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")


@dataclass(frozen=True)
class Message:
    msgid: str
    plural: str
    context: str
    where: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.context, self.msgid)


def _base() -> Path:
    return Path(settings.BASE_DIR)


def _from(method: str, source: str, keywords: dict, where: str) -> Iterator[Message]:
    fileobj = io.BytesIO(source.encode("utf-8"))
    for lineno, message, _comments, context in extract(
        method, fileobj, keywords=keywords, options={"encoding": "utf-8"}
    ):
        singular, plural = (
            (message[0], message[1]) if isinstance(message, tuple) else (message, "")
        )
        if singular:
            yield Message(singular, plural or "", context or "", f"{where}:{lineno}")


def template_messages() -> Iterator[Message]:
    """Messages of templates/ (``trans``/``blocktrans`` and their new names)."""
    root = _base() / "templates"
    for path in sorted(root.rglob("*")):
        if path.suffix not in {".html", ".txt"}:
            continue
        code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
        # Read as Python tokens: the template's indentation means nothing here
        # (each message is one repr() on one line).
        code = "\n".join(line.lstrip() for line in code.splitlines())
        where = str(path.relative_to(_base()))
        yield from _from("python", code, PYTHON_KEYWORDS, where)


def python_messages() -> Iterator[Message]:
    for package in PYTHON_PACKAGES:
        for path in sorted((_base() / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            where = str(path.relative_to(_base()))
            source = path.read_text(encoding="utf-8")
            yield from _from("python", source, PYTHON_KEYWORDS, where)


def script_messages() -> Iterator[Message]:
    root = _base() / "static" / "js"
    for path in sorted(root.rglob("*.js")):
        where = str(path.relative_to(_base()))
        source = path.read_text(encoding="utf-8")
        yield from _from("javascript", source, JS_KEYWORDS, where)


# A script's call with a literal message, as a reader sees it: t("…"), tn("…", …).
_SCRIPT_CALL = re.compile(r'\b(?:t|tn|N_)\(\s*"((?:[^"\\\n]|\\.)*)"')
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_LINE_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)


def unextracted_script_calls() -> list[str]:
    """Marked script messages the extractor cannot see.

    Babel's JavaScript extractor drops a call nested in another marked call's
    arguments (``t("%(a)s and %(b)s", {a: tn(…)})``): such a message would
    never reach the catalogue, and the page would show it in English.
    """
    found = []
    root = _base() / "static" / "js"
    for path in sorted(root.rglob("*.js")):
        where = str(path.relative_to(_base()))
        source = path.read_text(encoding="utf-8")
        extracted = {m.msgid for m in _from("javascript", source, JS_KEYWORDS, where)}
        code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))
        for match in _SCRIPT_CALL.finditer(code):
            text = match.group(1).replace('\\"', '"')
            if "\\" not in text and text not in extracted:
                found.append(f"{where}: {text!r}")
    return found


def domain_messages() -> dict[str, list[Message]]:
    """Every marked message by gettext domain, as ``makemessages`` splits them."""
    return {
        "django": [*template_messages(), *python_messages()],
        "djangojs": list(script_messages()),
    }


def locale_dir() -> Path:
    return Path(settings.LOCALE_PATHS[0])


def po_path(language: str, domain: str) -> Path:
    return locale_dir() / to_locale(language) / "LC_MESSAGES" / f"{domain}.po"


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def _entry_problems(msg: Message, entry: polib.POEntry | None) -> list[str]:
    if entry is None or entry.obsolete:
        return ["missing"]
    if "fuzzy" in entry.flags:
        return ["fuzzy (not reviewed)"]
    if msg.plural:
        forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
        if not forms or not all(forms):
            return ["untranslated plural form"]
        wanted = placeholders(msg.plural)
        # A language with one plural form (Chinese) says the plural's words.
        bad = [
            f for f in forms if placeholders(f) not in (wanted, placeholders(msg.msgid))
        ]
        return [f"placeholders differ: {bad[0]!r}"] if bad else []
    if not entry.msgstr:
        return ["untranslated"]
    if placeholders(entry.msgstr) != placeholders(msg.msgid):
        return [f"placeholders differ: {entry.msgstr!r}"]
    return []


def catalogue_problems() -> list[str]:
    """One line per message lacking a good translation, in every language."""
    problems: list[str] = []
    messages = domain_messages()
    for language, _name in settings.LANGUAGES:
        if language == settings.LANGUAGE_CODE.split("-")[0]:
            continue
        for domain, found in messages.items():
            path = po_path(language, domain)
            if not path.exists():
                problems.append(f"{path}: no catalogue")
                continue
            po = polib.pofile(str(path))
            entries = {(e.msgctxt or "", e.msgid): e for e in po}
            for msg in found:
                for problem in _entry_problems(msg, entries.get(msg.key)):
                    problems.append(
                        f"{language} {domain}: {msg.msgid!r} ({msg.where}): {problem}"
                    )
    return problems


def compile_catalogues() -> list[Path]:
    """Write each ``.po``'s ``.mo`` beside it (no msgfmt needed)."""
    written = []
    for path in sorted(locale_dir().rglob("*.po")):
        mo = path.with_suffix(".mo")
        polib.pofile(str(path)).save_as_mofile(str(mo))
        written.append(mo)
    return written


def stale_mo_files() -> list[Path]:
    """``.mo`` files that do not hold exactly their ``.po``'s translations."""
    stale = []
    for path in sorted(locale_dir().rglob("*.po")):
        mo = path.with_suffix(".mo")
        if not mo.exists():
            stale.append(mo)
            continue

        def table(entries) -> dict:
            return {
                (e.msgctxt or "", e.msgid): (e.msgstr, dict(e.msgstr_plural))
                for e in entries
                if e.msgid
                and not e.obsolete
                and "fuzzy" not in e.flags
                and (e.msgstr or any(e.msgstr_plural.values()))
            }

        if table(polib.pofile(str(path))) != table(polib.mofile(str(mo))):
            stale.append(mo)
    return stale
