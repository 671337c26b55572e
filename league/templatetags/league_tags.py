"""Small template helpers for the league pages."""

from __future__ import annotations

from typing import Any

from django import template

from league.ratings.elo import delta_text

register = template.Library()


@register.filter
def get_item(mapping: dict, key: Any) -> Any:
    """``{{ dict|get_item:key }}``: Django templates cannot index by a variable."""
    return mapping.get(key) if mapping else None


@register.filter
def points(value: float | None) -> str:
    """1.0 -> "1", 0.5 -> "½", 2.5 -> "2½": how chess tables print scores."""
    if value is None:
        return ""
    whole = int(value)
    half = abs(value - whole) >= 0.25
    if whole == 0 and half:
        return "½"
    return f"{whole}{'½' if half else ''}"


@register.filter
def rating_delta(value: float | None) -> str:
    """``{{ event.delta|rating_delta }}``: ``elo.delta_text`` ("+13.4")."""
    return "" if value is None else delta_text(float(value))


@register.filter
def participant_url(participant: Any) -> str:
    """Where a rankings row links: a person's profile, an uploaded bot's page
    (when the bots app is installed), nothing for a built-in bot."""
    from league.ratings.selectors import participant_link

    return participant_link(participant)


@register.filter
def anchored_in(participant: Any, pool: Any) -> float | None:
    """The fixed rating of a built-in bot that anchors ``pool`` (else None)."""
    from league.ratings.anchors import anchors_among

    if participant is None or pool is None:
        return None
    return anchors_among(pool, [participant]).get(participant.pk)


@register.filter
def holds_anchors(pool: Any) -> bool:
    """Whether ``pool`` holds built-in bots at fixed ratings (its legend says so)."""
    from league.ratings.anchors import is_anchored

    return pool is not None and is_anchored(pool)
