"""``{% load games %}``: ``{{ bot.game|game_name }}`` shows "Duelo: Kung Fu";
``{{ match|option_labels }}`` lists a table's public options in its game's words."""

from __future__ import annotations

from django import template

from gameplay.catalog import game_name as _game_name
from gameplay.options import clock_label as _clock_label
from gameplay.options import option_labels as _option_labels

register = template.Library()


@register.filter
def game_name(game_id: str) -> str:
    """The name people see for a game id (pages never show the raw id)."""
    return _game_name(str(game_id))


@register.filter
def option_labels(match) -> list[str]:
    """The match's public options as its game labels them ("Who starts: At
    random"); never a private option (a stacked deck)."""
    return _option_labels(game_id=match.game, config=match.config)


@register.filter
def clock_label(match) -> str:
    """The table's clock: per-move or total time, or a real-time game's time
    limit ("20 min match"); "none" when nothing times it."""
    return _clock_label(
        game_id=match.game, config=match.config, time_control=match.time_control or {}
    )


@register.filter
def time_control_label(value) -> str:
    """A stored time control (a match's, a challenge's, a tournament's) as
    people read it: "3 days/move", "5 min + 5 s", "30 s/move", "untimed"."""
    from gameplay.timecontrol import TimeControl

    return TimeControl.from_json(value or {}).label
