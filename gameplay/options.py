"""Which match options people may choose, and which part of a config anyone may see.

Every path that creates a match (tables, challenges, quick play, leagues,
tournaments, the bot ladder, the API) ends in ``services.match_create``, which
keeps its options to a game's *public* table options (``TableOption`` records in
each game's metadata) with checked types, ranges and choices. Engine options
outside that list (a stacked ``deck``, a fixed ``start`` seat) exist for tests,
tutorials and staff set-ups only and never in rated play: a known deal or a
chosen first player would let one side plan the whole game.

Nothing here names a game: the rules come from the game's own metadata and its
engine's defaults.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from gameplay.catalog import table_options
from gameplay.rules import CONFIG_TEXTS, GameError, get_game

N_ = gettext_noop


class OptionError(ValueError):
    """An option that is not public or whose value is out of bounds.

    ``text`` is the English message (``N_``-marked, ``%(name)s`` placeholders)
    and ``params`` fill it: the caller words it in the reader's language
    (``gameplay.errors.config_refused``); ``str()`` is the English, filled.
    """

    def __init__(self, text: str, **params: object) -> None:
        super().__init__(text % params if params else text)
        self.text = text
        self.params = params


def _engine_defaults(game_id: str, players: object) -> dict[str, Any]:
    """The engine's normalised config with nothing chosen (for stored configs)."""
    try:
        engine = get_game(game_id)
    except GameError as exc:
        raise OptionError(CONFIG_TEXTS["unknown_game"], **exc.params) from exc
    if not isinstance(players, int) or isinstance(players, bool):
        players = engine.min_players
    players = min(max(players, engine.min_players), engine.max_players)
    try:
        return engine.validate_config({"players": players})
    except GameError:  # pragma: no cover - an engine that refuses its own minimum
        return {}


def _check_value(option, value: object) -> object:
    """The value if it fits the option's kind, choices and range; else OptionError."""
    key = option.key
    if option.kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(N_("option %(option)s must be true or false"), option=key)
        return value
    if option.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError(
                N_("option %(option)s must be a whole number"), option=key
            )
        if not option.min_value <= value <= option.max_value:
            raise OptionError(
                N_("option %(option)s must be between %(min)s and %(max)s"),
                option=key,
                min=option.min_value,
                max=option.max_value,
            )
        return value
    if option.kind == "choice":
        allowed = [choice for choice, _ in option.choices]
        if not isinstance(value, str) or value not in allowed:
            raise OptionError(
                N_("option %(option)s must be one of: %(choices)s"),
                option=key,
                choices=", ".join(map(str, allowed)),
            )
        return value
    # A game's metadata that names a kind this module does not know: a
    # programming error, never a person's.
    raise ValueError(f"option {key} has an unknown kind {option.kind!r}")


def clean_table_options(
    game_id: str, options: object, *, players: int | None = None
) -> dict[str, Any]:
    """Keep a match's options to the game's public ones, with checked values.

    Accepts what people send (``{"rounds": 3}``) and configs the platform stored
    earlier in the engine's normalised form: keys outside the public list pass
    only with the engine's own default (``"deck": null``); ``players`` is the
    seat count's business and is dropped. Raises ``OptionError`` with a message
    a person can act on.
    """
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise OptionError(N_("options must be a JSON object"))
    public = {option.key: option for option in table_options(game_id)}
    defaults: dict[str, Any] | None = None
    clean: dict[str, Any] = {}
    refused: list[str] = []
    for key, value in options.items():
        if not isinstance(key, str):
            refused.append(str(key))
            continue
        if key == "players":
            continue
        option = public.get(key)
        if option is not None:
            clean[key] = _check_value(option, value)
            continue
        if defaults is None:
            defaults = _engine_defaults(game_id, players or options.get("players"))
        if key in defaults and defaults[key] == value:
            continue  # a stored config's untouched engine default
        refused.append(key)
    if refused:
        if not public:
            raise OptionError(
                N_(
                    "option(s) %(options)s cannot be set at public tables, "
                    "tournaments or leagues; this game has no options"
                ),
                options=", ".join(sorted(refused)),
            )
        raise OptionError(
            N_(
                "option(s) %(options)s cannot be set at public tables, "
                "tournaments or leagues; allowed: %(allowed)s"
            ),
            options=", ".join(sorted(refused)),
            allowed=", ".join(sorted(public)),
        )
    return clean


def public_config(*, game_id: str, config: dict[str, Any] | None) -> dict[str, Any]:
    """The part of a running match's config anyone may see.

    The player count and the public options; never a stacked deck or a fixed
    first seat, which are shown only once the match is over (with the seed).
    """
    config = config or {}
    shown: dict[str, Any] = {}
    if "players" in config:
        shown["players"] = config["players"]
    for option in table_options(game_id):
        if option.key not in config:
            continue
        try:  # a private value of a public key (a fixed first seat) stays hidden
            shown[option.key] = _check_value(option, config[option.key])
        except OptionError:
            continue
    return shown


def clock_label(
    *, game_id: str, config: dict[str, Any] | None, time_control: dict[str, Any]
) -> str:
    """A table's clock as people read it, in their language: "30 s/move",
    "10 min + 5 s", "3 days/move" (``TimeControl.label``), or a real-time
    game's time limit ("20 min match", its ``match_minutes`` option);
    "untimed" (``TimeControl``'s word for it) when nothing times the game."""
    from gameplay.timecontrol import UNTIMED_LABEL, TimeControl

    control = TimeControl.from_json(time_control)
    parts = [control.label] if control else []
    if not parts:
        shown = public_config(game_id=game_id, config=config)
        for option in table_options(game_id):
            if option.match_minutes:
                minutes = shown.get(option.key, option.default)
                parts.append(gettext("%(minutes)s min match") % {"minutes": minutes})
    return " ".join(parts) or str(UNTIMED_LABEL)


def option_labels(*, game_id: str, config: dict[str, Any] | None) -> list[str]:
    """A table's public options as people read them ("Round wins needed: 2"),
    in the game's own order and words (its ``TableOption`` labels and choice
    labels); an option the config leaves out shows the game's default."""
    shown = public_config(game_id=game_id, config=config)
    labels = []
    for option in table_options(game_id):
        value = shown.get(option.key, option.default)
        if option.kind == "bool":
            text = gettext("yes") if value else gettext("no")
        elif option.kind == "choice":
            text = gettext(dict(option.choices).get(str(value), str(value)))
        else:
            text = str(value)
        labels.append(f"{gettext(option.label)}: {text}")
    return labels
