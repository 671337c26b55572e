"""League, season, rating and tournament endpoints of the public API.

Views parse input and call services; a ``LeagueError`` becomes
``{"code", "detail"}`` with its status, so a refused request says why and the
services guarantee it changed nothing.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.http import SignedInApiRequest
from accounts.models import User
from gameplay.rules import available_games
from league import presenters, selectors, services
from league.divisions.selectors import season_division_tables
from league.divisions.services import league_set_divisions as set_divisions
from league.errors import NotFound
from league.models import League, Pairing, Participant, RatingPool, Season, Tournament
from league.ratings import selectors as rating_selectors
from league.tournaments import selectors as tournament_selectors
from league.tournaments import services as tournament_services


class LeagueAPIView(APIView):
    """League endpoints; ``LeagueError``s become ``{"code", "detail"}`` answers
    through the project's API exception handler (``config.api``).

    The views share one shape (validate the body, find the season or
    tournament of the URL, call one service, present the result), so the
    steps live here and each view is its service call.
    """

    def valid(self, serializer_class) -> dict[str, Any]:
        """The request body checked by ``serializer_class`` (400 with field errors)."""
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def season(self) -> Season:
        """The season named by the URL's ``season_id`` (404 when there is none)."""
        return get_object_or_404(
            Season.objects.select_related("league"), pk=self.kwargs["season_id"]
        )

    def tournament(self) -> Tournament:
        """The tournament named by the URL's ``slug`` (404 when there is none)."""
        return get_object_or_404(Tournament, slug=self.kwargs["slug"])


def _created(data: Any) -> Response:
    return Response(data, status=status.HTTP_201_CREATED)


def _match_created(match) -> Response:
    return _created({"match": str(match.public_id), "context": match.context})


def _page(request: Request) -> int | str:
    return request.query_params.get("page", 1)


# --- Leagues and seasons ------------------------------------------------------------


class LeagueListView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=False)],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        leagues = selectors.league_list(game=request.query_params.get("game"))
        leagues = leagues.prefetch_related("organisers")
        return Response([presenters.league(lg) for lg in leagues])


class LeagueDetailView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, slug: str) -> Response:
        league = selectors.league_by_slug(slug=slug)
        data = presenters.league(league, seasons=True)
        data["tournaments"] = [
            presenters.tournament(t) for t in league.tournaments.all()
        ]
        return Response(data)


class SeasonStandingsView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, season_id: int) -> Response:
        season = self.season()
        return Response(
            {
                "season": presenters.season(season),
                "standings": [
                    {
                        "rank": row.rank,
                        "participant": presenters.participant(row.participant),
                        "status": row.status,
                        "played": row.played,
                        "wins": row.wins,
                        "points": row.points,
                        "rating": row.rating,
                        "provisional": row.provisional,
                    }
                    for row in selectors.season_standings(season=season)
                ],
                # Leagues with divisions: each division's table and zones.
                "divisions": [
                    {
                        "level": table.level,
                        "final": table.final,
                        "promotion_zone": table.promoted,
                        "relegation_zone": table.relegated,
                        "rows": [
                            {
                                "rank": row.rank,
                                "participant": presenters.participant(row.participant),
                                "status": row.status,
                                "entry": row.entry,
                                "played": row.played,
                                "wins": row.wins,
                                "points": row.points,
                                "rating": row.rating,
                                "zone": row.zone,
                            }
                            for row in table.rows
                        ],
                    }
                    for table in season_division_tables(season=season)
                ],
            }
        )


class RegistrationSerializer(serializers.Serializer):
    bot_id = serializers.IntegerField(required=False, min_value=1, max_value=2**62)
    game = serializers.CharField(required=False, max_length=20)


class SeasonRegistrationView(LeagueAPIView):
    """POST registers the caller (or their bot); DELETE withdraws."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=RegistrationSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, season_id: int) -> Response:
        data = self.valid(RegistrationSerializer)
        registration = services.season_register(
            season=self.season(),
            user=request.user,
            bot_id=data.get("bot_id"),
            game=data.get("game"),
        )
        return _created(presenters.registration(registration))

    @extend_schema(request=RegistrationSerializer, responses={200: dict})
    def delete(self, request: SignedInApiRequest, season_id: int) -> Response:
        data = self.valid(RegistrationSerializer)
        registration = services.season_withdraw(
            season=self.season(), user=request.user, bot_id=data.get("bot_id")
        )
        return Response(presenters.registration(registration))


class QueueSerializer(serializers.Serializer):
    players = serializers.IntegerField(
        required=False, default=2, min_value=2, max_value=16
    )
    bot_id = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class SeasonQueueView(LeagueAPIView):
    """GET lists who waits; POST joins the season queue; DELETE leaves it.

    Joining answers 201 with the match when it completed a game, else 202.
    """

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, season_id: int) -> Response:
        entries = selectors.season_queue(season=self.season())
        return Response([presenters.queue_entry(e) for e in entries])

    @extend_schema(request=QueueSerializer, responses={201: dict, 202: dict})
    def post(self, request: SignedInApiRequest, season_id: int) -> Response:
        data = self.valid(QueueSerializer)
        match = services.season_queue_join(
            season=self.season(),
            user=request.user,
            players=data["players"],
            bot_id=data.get("bot_id"),
        )
        if match is None:
            return Response({"match": None}, status=status.HTTP_202_ACCEPTED)
        return _match_created(match)

    @extend_schema(request=QueueSerializer, responses={200: dict})
    def delete(self, request: SignedInApiRequest, season_id: int) -> Response:
        data = self.valid(QueueSerializer)
        left = services.season_queue_leave(
            season=self.season(), user=request.user, bot_id=data.get("bot_id")
        )
        return Response({"left": left})


class DecisionSerializer(serializers.Serializer):
    approve = serializers.BooleanField()


class RegistrationDecisionView(LeagueAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DecisionSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, registration_id: int) -> Response:
        data = self.valid(DecisionSerializer)
        registration = services.registration_decide(
            registration_id=registration_id, by=request.user, approve=data["approve"]
        )
        return Response(presenters.registration(registration))


class InvitationSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, max_length=150)
    bot_id = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class LeagueInvitationView(LeagueAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=InvitationSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(InvitationSerializer)
        league = selectors.league_by_slug(slug=slug)
        invitation = services.league_invite(
            league=league,
            by=request.user,
            username=data.get("username"),
            bot_id=data.get("bot_id"),
        )
        return _created(
            {
                "league": league.slug,
                "participant": presenters.participant(invitation.participant),
            }
        )


class DivisionsSerializer(serializers.Serializer):
    division_size = serializers.IntegerField(allow_null=True)
    promotion_count = serializers.IntegerField(required=False, default=2)
    relegation_count = serializers.IntegerField(required=False, default=2)


class LeagueDivisionsView(LeagueAPIView):
    """PATCH (organisers): the league's divisions; ``division_size`` null
    turns them off."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=DivisionsSerializer, responses={200: dict})
    def patch(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(DivisionsSerializer)
        league = get_object_or_404(League, slug=slug)
        league = set_divisions(
            league=league,
            by=request.user,
            division_size=data["division_size"],
            promotion_count=data["promotion_count"],
            relegation_count=data["relegation_count"],
        )
        return Response(presenters.league(league))


class SeasonDatesSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=80, default="")
    registration_opens_at = serializers.DateTimeField()
    registration_closes_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    time_control = serializers.DictField(required=False, default=dict)
    vacation_allowed = serializers.BooleanField(default=True)
    rollover = serializers.BooleanField(
        default=True,
        help_text=gettext_lazy("Finish the current seasons first (carry or reset)."),
    )


class LeagueSeasonsView(LeagueAPIView):
    """POST (organisers): roll the league over into a new season."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=SeasonDatesSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(SeasonDatesSerializer)
        league = selectors.league_by_slug(slug=slug)
        create = (
            services.season_rollover if data.pop("rollover") else services.season_create
        )
        season = create(league=league, by=request.user, **data)
        return _created(presenters.season(season))


class LeagueMatchSerializer(serializers.Serializer):
    participants = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=2, max_length=8
    )
    rated = serializers.BooleanField(default=False)


class SeasonMatchView(LeagueAPIView):
    """Organisers (and the pairing services) create league games; players get 403
    and join the season queue (``/api/seasons/<id>/queue/``) instead."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=LeagueMatchSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, season_id: int) -> Response:
        data = self.valid(LeagueMatchSerializer)
        match = services.league_match_create(
            season=self.season(),
            by=request.user,
            participant_ids=data["participants"],
            rated=data["rated"],
        )
        return _match_created(match)


# --- Ratings --------------------------------------------------------------------------


class PoolListView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=False)],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        pools = rating_selectors.pools(game=request.query_params.get("game"))
        return Response([presenters.pool(p) for p in pools])


class RankingsView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("pool", int, required=False),
            OpenApiParameter("game", str, required=False),
            OpenApiParameter("search", str, required=False),
            OpenApiParameter("page", int, required=False),
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        pool = _pool_from(request.query_params)
        page, rows = rating_selectors.ranking_page(
            pool=pool,
            page=_page(request),
            search=request.query_params.get("search", ""),
        )
        return Response(
            {
                "pool": presenters.pool(pool),
                "page": page.number,
                "pages": page.paginator.num_pages,
                "count": page.paginator.count,
                "results": [presenters.ranking_row(r) for r in rows],
            }
        )


def _pool_from(params) -> RatingPool:
    pool_id = params.get("pool")
    if pool_id:
        if not str(pool_id).isdigit():
            raise NotFound(_("no such rating pool"))
        pool = RatingPool.objects.filter(pk=int(pool_id)).first()
    else:
        # Without ?game= the first game of the registry (shared code names none).
        game = params.get("game") or available_games()[0]
        if game not in available_games():
            raise NotFound(
                _("no such game; available: %(games)s")
                % {"games": ", ".join(available_games())}
            )
        pool = rating_selectors.default_pool(game=game)
    if pool is None:
        raise NotFound(_("no such rating pool (no rated game yet?)"))
    return pool


class PlayerRatingsView(LeagueAPIView):
    """A player's ratings in every pool, with the history of each."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, username: str) -> Response:
        user = get_object_or_404(User, username=username)
        participant = Participant.objects.filter(
            key=Participant.user_key(user.pk)
        ).first()
        out = []
        if participant is not None:
            for rating in rating_selectors.participant_ratings(participant=participant):
                history = rating_selectors.rating_history(
                    participant=participant, pool=rating.pool
                )
                out.append(
                    {
                        "pool": presenters.pool(rating.pool),
                        "rating": rating.rating,
                        "games": rating.games,
                        "peak": rating.peak,
                        "provisional": rating.provisional,
                        "history": [presenters.history_point(h) for h in history],
                    }
                )
        return Response({"username": user.username, "ratings": out})


class PlayerHeadToHeadView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=False)],
        responses={200: dict},
    )
    def get(self, request: Request, username: str) -> Response:
        user = get_object_or_404(User, username=username)
        records = rating_selectors.head_to_head(
            user=user, game=request.query_params.get("game")
        )
        return Response(
            {
                "username": user.username,
                "records": [presenters.head_to_head(r) for r in records],
            }
        )


# --- Tournaments ----------------------------------------------------------------------


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.CharField(max_length=20)
    format = serializers.CharField(max_length=20)
    league = serializers.SlugField(required=False)
    season = serializers.IntegerField(required=False)
    participants = serializers.CharField(required=False, default="mixed")
    rated = serializers.BooleanField(default=True)
    swiss_rounds = serializers.IntegerField(required=False, min_value=1, max_value=20)
    third_place = serializers.BooleanField(default=False)
    options = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)
    round_hours = serializers.FloatField(default=24.0)
    round_days = serializers.IntegerField(
        required=False, min_value=1, max_value=30, help_text="Overrides round_hours."
    )
    vacation_allowed = serializers.BooleanField(default=True)
    starts_at = serializers.DateTimeField(required=False)
    seeding = serializers.CharField(required=False, default="rating")
    # Check-in in the last N minutes before starts_at; absent: no check-in.
    checkin_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=24 * 60
    )


class TournamentListView(LeagueAPIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=False)],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        tournaments = tournament_selectors.tournament_list(
            game=request.query_params.get("game")
        )[:200]
        return Response([presenters.tournament(t) for t in tournaments])

    @extend_schema(request=TournamentCreateSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest) -> Response:
        data = self.valid(TournamentCreateSerializer)
        league = season = None
        if data.get("season"):
            season = Season.objects.filter(pk=data["season"]).first()
            if season is None:
                raise NotFound(_("no such season"))
        if data.get("league"):
            league = League.objects.filter(slug=data["league"]).first()
            if league is None:
                raise NotFound(_("no such league"))
        tournament = tournament_services.tournament_create(
            by=request.user,
            name=data["name"],
            game=data["game"],
            format=data["format"],
            league=league,
            season=season,
            participants=data["participants"],
            rated=data["rated"],
            swiss_rounds=data.get("swiss_rounds"),
            third_place=data["third_place"],
            options=data["options"],
            time_control=data["time_control"],
            round_hours=data["round_days"] * 24
            if data.get("round_days")
            else data["round_hours"],
            vacation_allowed=data["vacation_allowed"],
            starts_at=data.get("starts_at"),
            seeding=data["seeding"],
            checkin_minutes=data.get("checkin_minutes"),
        )
        return _created(presenters.tournament(tournament))


class TournamentDetailView(LeagueAPIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, slug: str) -> Response:
        t = tournament_selectors.tournament_by_slug(slug=slug)
        data = presenters.tournament(t)
        data["entrants"] = [
            presenters.entrant(e) for e in tournament_selectors.entrants(tournament=t)
        ]
        data["pairings"] = [
            presenters.pairing(p)
            for _, pairings in tournament_selectors.rounds(tournament=t)
            for p in pairings
        ]
        if t.is_elimination:
            data["bracket"] = presenters.bracket(
                tournament_selectors.bracket_view(tournament=t)
            )
        else:
            data["standings"] = [
                presenters.standing(r)
                for r in tournament_selectors.standings(tournament=t)
            ]
        return Response(data)


class EntrySerializer(serializers.Serializer):
    bot_id = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class TournamentEntryView(LeagueAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=EntrySerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(EntrySerializer)
        entrant = tournament_services.tournament_enter(
            tournament=self.tournament(), user=request.user, bot_id=data.get("bot_id")
        )
        return _created(presenters.entrant(entrant))

    @extend_schema(request=EntrySerializer, responses={204: None})
    def delete(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(EntrySerializer)
        tournament_services.tournament_withdraw(
            tournament=self.tournament(), user=request.user, bot_id=data.get("bot_id")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class OrganiserEntrantSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, max_length=150, default="")
    bot_id = serializers.IntegerField(required=False, min_value=1, max_value=2**62)
    builtin = serializers.CharField(required=False, max_length=40, default="")


class RemoveEntrantSerializer(serializers.Serializer):
    entrant = serializers.IntegerField(min_value=1, max_value=2**62)


class TournamentCheckInView(LeagueAPIView):
    """POST checks in the caller's entry (or their bot's, with ``bot_id``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=EntrySerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(EntrySerializer)
        entrant = tournament_services.tournament_check_in(
            tournament=self.tournament(), user=request.user, bot_id=data.get("bot_id")
        )
        return Response(presenters.entrant(entrant))


class TournamentEntrantsView(LeagueAPIView):
    """Organisers add (a username, an uploaded bot or a built-in bot) and remove
    entrants before the start."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=OrganiserEntrantSerializer, responses={201: dict})
    def post(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(OrganiserEntrantSerializer)
        entrant = tournament_services.tournament_add_named_entrant(
            tournament=self.tournament(),
            by=request.user,
            username=data["username"],
            bot_id=data.get("bot_id"),
            builtin=data["builtin"],
        )
        return _created(presenters.entrant(entrant))

    @extend_schema(request=RemoveEntrantSerializer, responses={204: None})
    def delete(self, request: SignedInApiRequest, slug: str) -> Response:
        data = self.valid(RemoveEntrantSerializer)
        tournament_services.tournament_remove_entrant(
            tournament=self.tournament(), by=request.user, entrant_id=data["entrant"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeedSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=["rating", "manual"])
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False
    )


class TournamentActionView(LeagueAPIView):
    """Organiser actions: ``seed``, ``start`` and ``advance``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=SeedSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, slug: str, action: str) -> Response:
        t = self.tournament()
        if action == "seed":
            data = self.valid(SeedSerializer)
            entrants = tournament_services.tournament_seed(
                tournament=t,
                by=request.user,
                method=data["method"],
                order=data.get("order"),
            )
            return Response([presenters.entrant(e) for e in entrants])
        if action == "start":
            t = tournament_services.tournament_start(tournament=t, by=request.user)
        elif action == "advance":
            t = tournament_services.tournament_advance(tournament=t, by=request.user)
        else:
            raise NotFound(
                _("no tournament action %(action)s") % {"action": repr(action)}
            )
        return Response(presenters.tournament(t))


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, max_length=200, default="")


class PairingVoidView(LeagueAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=VoidSerializer, responses={200: dict})
    def post(self, request: SignedInApiRequest, pairing_id: int) -> Response:
        data = self.valid(VoidSerializer)
        pairing = tournament_services.pairing_void(
            pairing_id=pairing_id, by=request.user, reason=data["reason"]
        )
        pairing = Pairing.objects.select_related("round", "match").get(pk=pairing.pk)
        return Response(presenters.pairing(pairing))
