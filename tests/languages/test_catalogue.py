"""The translation catalogues are complete (issue 32: this runs in CI, fast).

Every message marked in a template, Python module or script must have a
reviewed translation in every language of ``settings.LANGUAGES``, with the
same placeholders; the committed ``.mo`` files must match their ``.po``.
"""

from __future__ import annotations

import polib
import pytest
from django.conf import settings

from languages import catalog


def test_every_message_is_translated_in_every_language():
    problems = catalog.catalogue_problems()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_the_extractor_finds_messages_of_every_kind():
    messages = catalog.domain_messages()
    wheres = {m.where.split("/")[0] for m in messages["django"]}
    assert {"templates", "accounts"} <= wheres
    assert any(m.where.startswith("static/js/") for m in messages["djangojs"])
    texts = {m.msgid for m in messages["django"]}
    assert "Sign out" in texts  # {% translate %} in base.html
    assert "This username is taken." in texts  # gettext_lazy in accounts.forms


def test_no_script_message_hides_from_the_extractor():
    # A t()/tn() nested in another marked call's arguments is not extracted:
    # compute it first, then pass the result in.
    assert catalog.unextracted_script_calls() == []


def test_a_nested_script_message_is_found_out(settings, tmp_path):
    scripts = tmp_path / "static" / "js"
    scripts.mkdir(parents=True)
    (scripts / "x.js").write_text(
        '// t("a comment")\n'
        'const a = t("Alone %(n)s", { n: 1 });\n'
        'const b = t("%(x)s!", { x: tn("%(n)s card", "%(n)s cards", 2, { n: 2 }) });\n',
        encoding="utf-8",
    )
    settings.BASE_DIR = tmp_path
    assert catalog.unextracted_script_calls() == ["static/js/x.js: '%(n)s card'"]


def test_compiled_catalogues_match_their_sources():
    assert catalog.stale_mo_files() == []


@pytest.mark.parametrize(
    ("original", "translation", "ok"),
    [
        ("%(name)s plays", "%(name)s joga", True),
        ("%(name)s plays", "%(nome)s joga", False),
        ("%(a)s and %(b)s", "%(b)s und %(a)s", True),
        ("%(a)s and %(b)s", "%(a)s und", False),
        ("{n} cards", "{n} Karten", True),
        ("{n} cards", "Karten", False),
    ],
)
def test_a_changed_placeholder_is_a_problem(original, translation, ok, tmp_path):
    entry = polib.POEntry(msgid=original, msgstr=translation)
    message = catalog.Message(original, "", "", "x.py:1")
    assert (catalog._entry_problems(message, entry) == []) is ok


def test_a_missing_or_fuzzy_translation_is_a_problem():
    message = catalog.Message("Sign out", "", "", "x.py:1")
    assert catalog._entry_problems(message, None) == ["missing"]
    empty = polib.POEntry(msgid="Sign out", msgstr="")
    assert catalog._entry_problems(message, empty) == ["untranslated"]
    fuzzy = polib.POEntry(msgid="Sign out", msgstr="Abmelden", flags=["fuzzy"])
    assert catalog._entry_problems(message, fuzzy) == ["fuzzy (not reviewed)"]


def test_every_language_has_catalogues():
    for code, _name in settings.LANGUAGES:
        if code == "en":
            continue
        for domain in ("django", "djangojs"):
            assert catalog.po_path(code, domain).exists(), (code, domain)


def test_the_extractor_reads_every_app_of_the_project():
    """Each of our apps' Python modules is scanned: an app left out of
    ``PYTHON_PACKAGES`` would let its messages go untranslated unnoticed."""
    from pathlib import Path

    from django.apps import apps

    base = Path(settings.BASE_DIR).resolve()
    ours = set()
    for config in apps.get_app_configs():
        path = Path(config.path).resolve()
        # Installed apps live in site-packages, which sits inside the project
        # when the virtualenv does (make install's .venv): not ours.
        if path.is_relative_to(base) and "site-packages" not in path.parts:
            ours.add(path.relative_to(base).parts[0])
    assert {"league", "bots", "community", "notifications", "analysis"} <= ours
    assert ours <= set(catalog.PYTHON_PACKAGES)
    # And every app has marked messages of its own (none is English-only).
    scanned = {m.where.split("/")[0] for m in catalog.python_messages()}
    assert ours <= scanned, sorted(ours - scanned)
