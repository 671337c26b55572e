"""Small template helpers for the league pages."""

from __future__ import annotations

from typing import Any

from django import template

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
