"""Per-pool Elo parameters: ``elo.EloConfig`` defaults plus a pool's overrides."""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from league.ratings.elo import DEFAULT_CONFIG, EloConfig

if TYPE_CHECKING:
    from league.models import RatingPool

_FIELDS = frozenset(f.name for f in fields(EloConfig))


def elo_config_from(overrides: dict[str, Any] | None) -> EloConfig:
    """EloConfig with ``overrides`` (unknown keys refused: a typo must not pass)."""
    if not overrides:
        return DEFAULT_CONFIG
    unknown = set(overrides) - _FIELDS
    if unknown:
        raise ValueError(f"unknown Elo option(s): {', '.join(sorted(unknown))}")
    return _cached(tuple(sorted(overrides.items())))


@lru_cache(maxsize=256)
def _cached(items: tuple[tuple[str, Any], ...]) -> EloConfig:
    return EloConfig(**dict(items))


def pool_elo_config(pool: RatingPool) -> EloConfig:
    return elo_config_from(pool.config)
