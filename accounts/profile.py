"""Sections other apps add to a player's profile page.

Accounts must not know every app that has something to say about a player, so
apps register a callable here (in their AppConfig.ready) that returns a template
name and context for one user; the profile page renders them in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from accounts.models import User


@dataclass(frozen=True)
class ProfileSection:
    title: str
    template: str
    context: dict[str, Any]


SectionBuilder = Callable[[User], ProfileSection | None]
_builders: list[tuple[int, SectionBuilder]] = []


def register_profile_section(builder: SectionBuilder, *, order: int = 100) -> None:
    if all(existing is not builder for _, existing in _builders):
        _builders.append((order, builder))
        _builders.sort(key=lambda pair: pair[0])


def profile_sections(*, user: User) -> list[ProfileSection]:
    sections = []
    for _, builder in _builders:
        section = builder(user)
        if section is not None:
            sections.append(section)
    return sections
