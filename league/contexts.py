"""Match-page descriptions of league and tournament games (gameplay.contexts).

A tournament game names its tournament, round (and table or bracket match)
and the round's deadline, so a player who arrives from a notification knows
what is at stake and until when; a league game names its league and season.
"""

from __future__ import annotations

from django.urls import reverse

from gameplay.contexts import MatchContextInfo
from gameplay.models import Match
from gameplay.timecontrol import TimeControl
from league.models import Pairing, Season, Tournament


def _ids(parts: list[str]) -> list[int] | None:
    """The parts as ids, or None if one is not a plausible id."""
    if not all(p.isdigit() and len(p) < 19 for p in parts):
        return None
    return [int(p) for p in parts]


def _clock_detail(competition: Tournament | Season) -> str:
    """ "3 days/move, vacation allowed" for a competition's games."""
    control = TimeControl.from_json(competition.time_control)
    if not control.is_correspondence:
        return control.label
    allowed = "allowed" if competition.vacation_allowed else "not allowed"
    return f"{control.label}, vacation {allowed}"


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
    details = [f"round {rnd.number}", _clock_detail(tournament)]
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
        details=["season game", _clock_detail(season)],
        # Season games feed the league's and the season's ladders always
        # (pools_for_match), also when not rated on the global ladder.
        rated_in="the season's ladder",
    )


def tournament_allows_vacation(match: Match) -> bool:
    """Whether the tournament of ``tournament:<id>:<pairing>`` allows vacation."""
    ids = _ids(match.context.split(":")[1:2])
    if not ids:
        return True
    allowed = (
        Tournament.objects.filter(pk=ids[0])
        .values_list("vacation_allowed", flat=True)
        .first()
    )
    return allowed is not False


def season_allows_vacation(match: Match) -> bool:
    """Whether the season of ``league:<id>:season:<id>`` allows vacation."""
    parts = match.context.split(":")
    ids = _ids(parts[3:4]) if len(parts) == 4 else None
    if not ids:
        return True
    allowed = (
        Season.objects.filter(pk=ids[0])
        .values_list("vacation_allowed", flat=True)
        .first()
    )
    return allowed is not False


def register() -> None:
    from gameplay.contexts import (
        register_context_describer,
        register_seat_keeping_context,
        register_tournament_context,
        register_vacation_rule,
    )

    register_context_describer("tournament:", describe_tournament_game)
    register_context_describer("league:", describe_league_game)
    # A round's absent player keeps the round's deadline (``_enforce_deadline``),
    # not the casual table's grace period: no bot takes the seat after a minute.
    register_seat_keeping_context("tournament:")
    register_seat_keeping_context("league:")
    # A round's games are tournament games (the operator's automatic analysis).
    register_tournament_context("tournament:")
    # Tournaments and seasons say whether vacation pauses their games' clocks.
    register_vacation_rule("tournament:", tournament_allows_vacation)
    register_vacation_rule("league:", season_allows_vacation)
