"""JSON shapes of league objects for the API (one place, so pages and API agree)."""

from __future__ import annotations

from typing import Any

from gameplay.timecontrol import time_control_label
from league.models import (
    Entrant,
    League,
    Pairing,
    Participant,
    RatingPool,
    Registration,
    Season,
    SeasonQueueEntry,
    Tournament,
)
from league.ratings.selectors import HeadToHead, HistoryPoint, RankingRow
from league.tournaments.selectors import BracketView, StandingRow


def participant(p: Participant | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "id": p.pk,
        "key": p.key,
        "type": p.type,
        "name": p.name,
        "username": p.user.username if p.user is not None else None,
        "bot_id": p.bot_id,
    }


def season(s: Season) -> dict[str, Any]:
    return {
        "id": s.pk,
        "league": s.league.slug,
        "number": s.number,
        "name": str(s),
        "status": s.status,
        "registration_opens_at": s.registration_opens_at,
        "registration_closes_at": s.registration_closes_at,
        "starts_at": s.starts_at,
        "ends_at": s.ends_at,
        "time_control": s.time_control,
        "time_control_label": time_control_label(s.time_control),
        "vacation_allowed": s.vacation_allowed,
    }


def league(lg: League, *, seasons: bool = False) -> dict[str, Any]:
    data = {
        "slug": lg.slug,
        "name": lg.name,
        "game": lg.game,
        "description": lg.description,
        "participants": lg.participants,
        "invite_only": lg.invite_only,
        "carry_ratings_over": lg.carry_ratings_over,
        "correspondence_pool": lg.correspondence_pool,
        "division_size": lg.division_size,
        "promotion_count": lg.promotion_count,
        "relegation_count": lg.relegation_count,
        "options": lg.options,
        "organisers": [u.username for u in lg.organisers.all()],
    }
    if seasons:
        data["seasons"] = [season(s) for s in lg.seasons.all()]
    return data


def registration(r: Registration) -> dict[str, Any]:
    return {
        "id": r.pk,
        "season": r.season_id,
        "participant": participant(r.participant),
        "status": r.status,
        "created_at": r.created_at,
    }


def queue_entry(e: SeasonQueueEntry) -> dict[str, Any]:
    return {
        "participant": participant(e.participant),
        "players": e.players,
        "joined_at": e.joined_at,
    }


def pool(p: RatingPool) -> dict[str, Any]:
    return {
        "id": p.pk,
        "name": str(p),
        "game": p.game,
        "scope": p.scope,
        "league": p.league.slug if p.league is not None else None,
        "season": p.season_id,
        "participants": p.participants,
        "rated_matches": p.rated_matches,
        "ratings": p.rating_count,
    }


def ranking_row(row: RankingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "participant": participant(row.participant),
        "rating": row.rating,
        "rating_exact": row.exact,
        "games": row.games,
        "played": row.played,
        "wins": row.wins,
        "points": row.points,
        "peak": row.peak,
        "provisional": row.provisional,
        "last_played_at": row.last_played_at,
    }


def history_point(h: HistoryPoint) -> dict[str, Any]:
    return {
        "seq": h.seq,
        "at": h.when,
        "rating": h.rating,
        "delta": h.delta,
        "placement": h.placement,
        "players": h.players,
        "match": h.match_public_id,
    }


def head_to_head(r: HeadToHead) -> dict[str, Any]:
    return {
        "opponent": r.opponent_name,
        "username": r.opponent_username,
        "wins": r.wins,
        "draws": r.draws,
        "losses": r.losses,
        "played": r.played,
    }


def entrant(e: Entrant | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {
        "id": e.pk,
        "seed": e.seed,
        "withdrawn": e.withdrawn,
        "checked_in_at": e.checked_in_at,
        "participant": participant(e.participant),
    }


def pairing(p: Pairing) -> dict[str, Any]:
    return {
        "id": p.pk,
        "round": p.round.number,
        "table": p.table,
        "bracket_match": p.bracket_match or None,
        "first": p.first_id,
        "second": p.second_id,
        "status": p.status,
        "outcome": p.outcome or None,
        "first_points": p.first_points,
        "second_points": p.second_points,
        "winner": p.winner_id,
        "match": str(p.match.public_id) if p.match is not None else None,
        "deadline": p.round.deadline,
        "table_seats": [
            {
                "seat": s.seat,
                "entrant": s.entrant_id,
                "placement": s.placement,
                "points": s.points,
            }
            for s in p.seats.all()
        ],
    }


def standing(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "entrant": row.entrant.pk,
        "name": row.entrant.participant.name,
        "score": row.score,
        "played": row.played,
        "byes": row.byes,
        "tiebreaks": row.tiebreaks,
    }


def bracket(view: BracketView | None) -> list[dict[str, Any]] | None:
    if view is None:
        return None
    return [
        {
            "title": section.title,
            "rounds": [
                {
                    "title": rnd.title,
                    "matches": [
                        {
                            "id": m.id,
                            "state": m.state,
                            "pairing": m.pairing.pk if m.pairing else None,
                            "slots": [
                                {"name": s.name, "seed": s.seed, "result": s.state}
                                for s in m.slots
                            ],
                        }
                        for m in rnd.matches
                    ],
                }
                for rnd in section.rounds
            ],
        }
        for section in view.sections
    ]


def tournament(t: Tournament) -> dict[str, Any]:
    return {
        "slug": t.slug,
        "name": t.name,
        "game": t.game,
        "format": t.format,
        "status": t.status,
        "league": t.league.slug if t.league is not None else None,
        "season": t.season_id,
        "participants": t.participants,
        "seeding": t.seeding,
        "rated": t.rated,
        "swiss_rounds": t.swiss_rounds,
        "third_place": t.third_place,
        "round_hours": t.round_hours,
        "time_control": t.time_control,
        "time_control_label": time_control_label(t.time_control),
        "vacation_allowed": t.vacation_allowed,
        "starts_at": t.starts_at,
        "checkin_minutes": t.checkin_minutes,
        "checkin_opens_at": t.checkin_opens_at,
        "champion": entrant(t.champion) if t.champion_id else None,
    }
