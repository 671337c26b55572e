"""Every engine refusal has a code, and every code a text a player reads.

``IllegalAction(code, message, **params)``: the site words ``code`` in the
reader's language from ``gameplay.rules.error_texts`` (docs/i18n.md), so a
refusal raised with a code that has no text, or with a text whose
placeholders its params do not fill, would reach players as nothing (or
fail); these tests read every engine's source and find such a raise. A
refused configuration, ``InvalidConfig(code, message, **params)``, is held
to ``gameplay.rules.CONFIG_TEXTS`` the same way.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gameplay.rules import (
    COMMON_TEXTS,
    CONFIG_TEXTS,
    GameError,
    IllegalAction,
    InvalidConfig,
    available_games,
    error_texts,
    get_game,
)

RULES = Path(__file__).resolve().parents[2] / "gameplay" / "rules"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def raises_in(
    source: str, error: str = "IllegalAction"
) -> list[tuple[int, str | None, set[str]]]:
    """(line, code or None when not a literal, keyword names) of every
    ``IllegalAction(...)`` (or ``error``) in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name != error:
            continue
        first = node.args[0] if node.args else None
        code = (
            first.value
            if isinstance(first, ast.Constant) and isinstance(first.value, str)
            else None
        )
        found.append((node.lineno, code, {k.arg for k in node.keywords if k.arg}))
    return found


def problems_of(
    source: str, texts: dict[str, str], where: str, error: str = "IllegalAction"
) -> list[str]:
    problems = []
    for line, code, params in raises_in(source, error):
        if code is None:
            problems.append(f"{where}:{line}: the code is not a string literal")
        elif code not in texts:
            problems.append(f"{where}:{line}: code {code!r} has no text")
        else:
            missing = set(PLACEHOLDER.findall(texts[code])) - params
            if missing:
                problems.append(f"{where}:{line}: {code!r} lacks params {missing}")
    return problems


def game_of(path: Path) -> str | None:
    part = path.relative_to(RULES).parts
    return part[0] if len(part) > 1 and part[0] in available_games() else None


def engine_sources() -> list[Path]:
    return sorted(p for p in RULES.rglob("*.py") if "IllegalAction(" in p.read_text())


def test_every_refusal_has_a_code_with_a_text_its_params_fill():
    problems = []
    for path in engine_sources():
        game = game_of(path)
        texts = error_texts(game) if game else COMMON_TEXTS
        problems += problems_of(path.read_text(), texts, str(path.relative_to(RULES)))
    assert problems == []


def test_a_new_code_without_a_text_is_found():
    source = (
        "def f(seat):\n"
        "    raise IllegalAction('brand_new', 'no text yet')\n"
        "    raise IllegalAction('offer_never_made', 'offer 3 was never made')\n"
        "    raise IllegalAction(code, 'not a literal')\n"
    )
    assert problems_of(source, error_texts("kungfu2009"), "x.py") == [
        "x.py:2: code 'brand_new' has no text",
        "x.py:3: 'offer_never_made' lacks params {'offer'}",
        "x.py:4: the code is not a string literal",
    ]


@pytest.mark.parametrize("game", available_games())
def test_every_text_of_a_game_is_raised_by_it(game):
    """No text waits for a code nobody raises (a renamed code would leave the
    old text behind and the new one without)."""
    raised = set()
    for path in engine_sources():
        if game_of(path) in (game, None):
            raised |= {code for _, code, _ in raises_in(path.read_text())}
    own = set(error_texts(game)) - set(COMMON_TEXTS)
    assert own <= raised
    assert not own & set(COMMON_TEXTS)


def test_the_common_codes_are_raised_by_every_game_that_needs_them():
    raised = set()
    for path in engine_sources():
        raised |= {code for _, code, _ in raises_in(path.read_text())}
    assert set(COMMON_TEXTS) <= raised


def test_a_refusal_carries_its_code_params_and_english_detail():
    game = get_game("kungfu2009")
    state = game.setup({"players": 4}, seed=3)
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, 0, "accept:7")
    assert refused.value.code == "offer_never_made"
    assert refused.value.params == {"offer": 7}
    assert str(refused.value) == "offer 7 was never made"
    text = error_texts("kungfu2009")[refused.value.code]
    assert text % refused.value.params == "Offer 7 was never made."


# --- refused configurations ------------------------------------------------------


def config_sources() -> list[Path]:
    return sorted(p for p in RULES.rglob("*.py") if "InvalidConfig(" in p.read_text())


def test_every_refused_config_has_a_code_with_a_text_its_params_fill():
    problems = []
    for path in config_sources():
        where = str(path.relative_to(RULES))
        problems += problems_of(path.read_text(), CONFIG_TEXTS, where, "InvalidConfig")
    assert problems == []
    assert len(config_sources()) >= 5  # base.py and the four engines


def test_a_config_code_without_a_text_is_found():
    source = (
        "def f(config):\n"
        "    raise InvalidConfig('brand_new', 'no text yet')\n"
        "    raise InvalidConfig('option_bool', 'x: no bool', option='x')\n"
    )
    assert problems_of(source, CONFIG_TEXTS, "x.py", "InvalidConfig") == [
        "x.py:2: code 'brand_new' has no text",
        "x.py:3: 'option_bool' lacks params {'value'}",
    ]


def test_every_config_text_is_raised():
    raised = {"unknown_game"}  # gameplay.rules.UnknownGame's own code
    for path in config_sources():
        raised |= {c for _, c, _ in raises_in(path.read_text(), "InvalidConfig")}
    assert set(CONFIG_TEXTS) == raised
    assert not set(CONFIG_TEXTS) & set(COMMON_TEXTS)


@pytest.mark.parametrize(
    "game, config, code, text",
    [
        ("duelo", {"players": 9}, "players_range", "for 2 to 8 players, not 9."),
        ("kungfu2013", {"players": 3}, "players_exact", "exactly 2 players, not 3."),
        ("kungfu2019", {"draft": "no"}, "option_bool", "draft must be yes or no"),
        ("kungfu2009", {"minutes": 0}, "option_range", "from 1 to 240, not 0."),
        ("kungfu2009", {"speed": 1}, "unknown_options", "Unknown option(s): speed."),
        ("duelo", [2], "config_not_object", "must be a JSON object."),
        ("kungfu2019", {"deck": ["c01", "c01"]}, "bad_deck", "(deck) do not fit"),
    ],
)
def test_a_refused_config_carries_its_code_params_and_english_detail(
    game, config, code, text
):
    with pytest.raises(InvalidConfig) as refused:
        get_game(game).validate_config(config)
    assert refused.value.code == code
    assert text in CONFIG_TEXTS[code] % refused.value.params
    assert str(refused.value) == refused.value.message  # the detail, unchanged


def test_an_unknown_game_and_a_bad_seed_have_codes_too():
    with pytest.raises(GameError) as unknown:
        get_game("chess")
    assert unknown.value.code == "unknown_game"
    assert CONFIG_TEXTS["unknown_game"] % unknown.value.params == (
        "There is no game chess. The games are: " + ", ".join(available_games()) + "."
    )
    with pytest.raises(InvalidConfig) as seed:
        get_game("duelo").setup({"players": 2}, "1")
    assert seed.value.code == "seed_not_integer"
    assert seed.value.params == {"value": "1"}
