"""``{% load games %}``: ``{{ bot.game|game_name }}`` shows "Duelo: Kung Fu"."""

from __future__ import annotations

from django import template

from gameplay.catalog import game_name as _game_name

register = template.Library()


@register.filter
def game_name(game_id: str) -> str:
    """The name people see for a game id (pages never show the raw id)."""
    return _game_name(str(game_id))
