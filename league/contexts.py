"""Match-page descriptions of league and tournament games (gameplay.contexts).

A tournament game names its tournament, round (and table or bracket match)
and the round's deadline, so a player who arrives from a notification knows
what is at stake and until when; a league game names its league and season.
"""

from __future__ import annotations

from django.urls import reverse

from gameplay.contexts import MatchContextInfo
from gameplay.models import Match
from league.models import Pairing, Season


def _ids(parts: list[str]) -> list[int] | None:
    """The parts as ids, or None if one is not a plausible id."""
    if not all(p.isdigit() and len(p) < 19 for p in parts):
        return None
    return [int(p) for p in parts]


def describe_tournament_game(match: Match) -> MatchContextInfo | None:
    """``tournament:<tournament id>:<pairing id>``."""
    parts = match.context.split(":")
    ids = _ids(parts[1:]) if len(parts) == 3 else None
    if ids is None:
        return None
    pairing = (
        Pairing.objects.select_related("tournament", "round")
        .filter(pk=ids[1], tournament_id=ids[0])
        .first()
    )
    if pairing is None:
        return None
    tournament, rnd = pairing.tournament, pairing.round
    details = [f"round {rnd.number}"]
    if pairing.bracket_match:
        details.append(f"bracket match {pairing.bracket_match}")
    elif pairing.table:
        details.append(f"table {pairing.table}")
    return MatchContextInfo(
        title=tournament.name,
        url=reverse("league:tournament", args=[tournament.slug]),
        details=details,
        deadline=rnd.deadline,
        # A league's tournament feeds the league's (and season's) ladder
        # whether or not it is rated on the global one (pools_for_match).
        rated_in="the league's ladder" if tournament.league_id else "",
    )


def describe_league_game(match: Match) -> MatchContextInfo | None:
    """``league:<league id>:season:<season id>``."""
    parts = match.context.split(":")
    if len(parts) != 4 or parts[2] != "season":
        return None
    ids = _ids([parts[1], parts[3]])
    if ids is None:
        return None
    season = (
        Season.objects.select_related("league")
        .filter(pk=ids[1], league_id=ids[0])
        .first()
    )
    if season is None:
        return None
    return MatchContextInfo(
        title=str(season),
        url=reverse("league:season", args=[season.league.slug, season.number]),
        details=["season game"],
        # Season games feed the league's and the season's ladders always
        # (pools_for_match), also when not rated on the global ladder.
        rated_in="the season's ladder",
    )


def register() -> None:
    from gameplay.contexts import (
        register_context_describer,
        register_seat_keeping_context,
    )

    register_context_describer("tournament:", describe_tournament_game)
    register_context_describer("league:", describe_league_game)
    # A round's absent player keeps the round's deadline (``_enforce_deadline``),
    # not the casual table's grace period: no bot takes the seat after a minute.
    register_seat_keeping_context("tournament:")
    register_seat_keeping_context("league:")
