"""``{{ version|runtime_label }}``: which runtime a stored version runs on."""

from __future__ import annotations

from django import template

from bots import selectors
from bots.models import BotVersion

register = template.Library()


@register.filter
def runtime_label(version: BotVersion) -> str:
    return selectors.version_runtime(version=version)
