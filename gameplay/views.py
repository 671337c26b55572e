"""Game, lobby, match and replay pages. Thin: parse, authorise, call a service."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils import formats
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from accounts.models import User
from gameplay import frames, lobby, selectors, services
from gameplay import vacation as vacations
from gameplay.catalog import GameInfo, game_catalog
from gameplay.contexts import (
    SEALED_MESSAGE,
    describe_match_context,
    match_is_sealed,
)
from gameplay.errors import MatchError
from gameplay.forms import (
    BotSeatForm,
    ChallengeForm,
    PlayBotForm,
    QuickPlayForm,
    TableForm,
)
from gameplay.models import Challenge, ChallengeStatus, Match, MatchStatus, QueueEntry
from gameplay.rematch import rematch_request
from gameplay.signals import match_opened


def _game_or_404(game_id: str) -> GameInfo:
    for info in game_catalog():
        if info.id == game_id:
            return info
    raise Http404("No such game.")


def game_list(request: HttpRequest) -> HttpResponse:
    games = [(game, _rules_url(game.id)) for game in game_catalog()]
    return render(request, "gameplay/game_list.html", {"games": games})


def game_detail(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game's lobby: open tables, live matches, quick play and challenges."""
    game = _game_or_404(game_id)
    user = request.user if request.user.is_authenticated else None
    context: dict[str, Any] = {
        "game": game,
        "rules_url": _rules_url(game.id),
        "tables": selectors.open_tables(game=game.id)[:30],
        "live": selectors.live_matches(game=game.id)[:30],
        "recent": selectors.recent_matches(game=game.id, limit=10),
        "table_form": TableForm(game=game, initial={"players": game.min_players}),
        "quick_form": QuickPlayForm(game=game),
        "play_bot_form": PlayBotForm(game=game),
        "challenge_form": ChallengeForm(game=game),
    }
    if user:
        context["tables"] = lobby.tables_open_to(
            user=user, tables=list(context["tables"])
        )
        context["queued"] = QueueEntry.objects.filter(user=user, game=game.id).first()
        context["challenges_in"] = Challenge.objects.filter(
            challenged=user, game=game.id, status=ChallengeStatus.PENDING
        ).select_related("challenger")
        context["challenges_out"] = Challenge.objects.filter(
            challenger=user, game=game.id, status=ChallengeStatus.PENDING
        ).select_related("challenged")
        context["my_matches"] = (
            selectors.matches_for_user(user=user)
            .filter(game=game.id, status__in=[MatchStatus.ACTIVE, MatchStatus.WAITING])
            .order_by("-created_at")[:10]
        )
    return render(request, "gameplay/game_detail.html", context)


def _board_assets(game_id: str) -> dict[str, str | None]:
    """The game's board template and script, found by its id.

    A game brings its table as templates/gameplay/boards/<game>.html and
    static/js/boards/<game>.js; the match and replay pages need nothing else.
    """
    return {
        "board_template": f"gameplay/boards/{game_id}.html",
        "board_script": f"js/boards/{game_id}.js",
        "rules_url": _rules_url(game_id),
    }


def _rules_template(game_id: str) -> str | None:
    """A game's rules page content: templates/gameplay/rules/<game>.html."""
    name = f"gameplay/rules/{game_id}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def _rules_url(game_id: str) -> str | None:
    if _rules_template(game_id) is None:
        return None
    return reverse("gameplay:rules", args=[game_id])


def game_rules(request: HttpRequest, game_id: str) -> HttpResponse:
    """How to play: the game's own rules page, linked from its lobby and table."""
    game = _game_or_404(game_id)
    template = _rules_template(game.id)
    if template is None:
        raise Http404("This game has no rules page yet.")
    return render(
        request, "gameplay/rules.html", {"game": game, "rules_template": template}
    )


@login_required
@require_POST
def rematch(request: SignedInRequest, public_id: str) -> HttpResponse:
    """Ask for a rematch: a new match with the same seats, or join the one open."""
    match = get_object_or_404(Match, public_id=public_id)
    try:
        new = rematch_request(match_id=match.pk, user=request.user)
    except MatchError as exc:
        _report(request, exc)
        return redirect("gameplay:match", public_id=match.public_id)
    return redirect("gameplay:match", public_id=new.public_id)


def _report(request: HttpRequest, exc: MatchError) -> None:
    messages.error(request, exc.message)


def _report_form(request: HttpRequest, form: Form) -> None:
    """Each error once, under the field's label (never its raw name)."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        text = " ".join(dict.fromkeys(str(e) for e in errors))
        messages.error(request, f"{label}: {text}" if label else text)


@login_required
@require_POST
def table_create(request: SignedInRequest, game_id: str) -> HttpResponse:
    game = _game_or_404(game_id)
    form = TableForm(request.POST, game=game)
    if not form.is_valid():
        _report_form(request, form)
        return redirect("gameplay:game_detail", game_id=game.id)
    try:
        match = lobby.table_create(
            host=request.user,
            game=game.id,
            players=form.cleaned_data["players"],
            options=form.options(),
            rated=form.cleaned_data["rated"],
            time_control=form.time_control(),
            spectator_delay=form.cleaned_data["spectator_delay"] or 0,
        )
    except MatchError as exc:
        _report(request, exc)
        return redirect("gameplay:game_detail", game_id=game.id)
    return redirect("gameplay:match", public_id=match.public_id)


@login_required
@require_POST
def play_bot(request: SignedInRequest, game_id: str) -> HttpResponse:
    """One click from the game's page to a game against the computer."""
    game = _game_or_404(game_id)
    form = PlayBotForm(request.POST, game=game)
    if not form.is_valid():
        _report_form(request, form)
        return redirect("gameplay:game_detail", game_id=game.id)
    try:
        match = lobby.play_bot(
            user=request.user,
            game=game.id,
            bot=form.cleaned_data["bot"],
            rated=form.cleaned_data["rated"],
        )
    except MatchError as exc:
        _report(request, exc)
        return redirect("gameplay:game_detail", game_id=game.id)
    return redirect("gameplay:match", public_id=match.public_id)


@login_required
@require_POST
def quick_play(request: SignedInRequest, game_id: str) -> HttpResponse:
    game = _game_or_404(game_id)
    if request.POST.get("leave"):
        lobby.queue_leave(user=request.user, game=game.id)
        messages.success(request, _("You left the quick-play queue."))
        return redirect("gameplay:game_detail", game_id=game.id)
    form = QuickPlayForm(request.POST, game=game)
    if not form.is_valid():
        _report_form(request, form)
        return redirect("gameplay:game_detail", game_id=game.id)
    try:
        match = lobby.queue_join(
            user=request.user,
            game=game.id,
            players=form.cleaned_data["players"],
            rated=form.cleaned_data["rated"],
            time_control=form.time_control(),
        )
    except MatchError as exc:
        _report(request, exc)
        return redirect("gameplay:game_detail", game_id=game.id)
    if match is not None:
        return redirect("gameplay:match", public_id=match.public_id)
    messages.success(
        request, _("You are in the queue; this page shows your game when it starts.")
    )
    return redirect("gameplay:game_detail", game_id=game.id)


@login_required
@require_POST
def challenge_create(request: SignedInRequest, game_id: str) -> HttpResponse:
    game = _game_or_404(game_id)
    form = ChallengeForm(request.POST, game=game)
    if form.is_valid():
        opponent = User.objects.filter(
            username__iexact=form.cleaned_data["username"], is_active=True
        ).first()
        if opponent is None:
            messages.error(request, _("No player with that username."))
        else:
            try:
                lobby.challenge_create(
                    challenger=request.user,
                    challenged=opponent,
                    game=game.id,
                    rated=form.cleaned_data["rated"],
                    time_control=form.time_control(),
                )
                messages.success(
                    request,
                    _("Challenge sent to %(name)s.") % {"name": opponent.public_name},
                )
            except MatchError as exc:
                _report(request, exc)
    else:
        _report_form(request, form)
    return redirect("gameplay:game_detail", game_id=game.id)


@login_required
@require_POST
def challenge_answer(
    request: SignedInRequest, challenge_id: int, answer: str
) -> HttpResponse:
    if answer not in ("accept", "decline"):
        raise Http404("No such answer.")
    challenge = get_object_or_404(Challenge, pk=challenge_id)
    try:
        if answer == "accept":
            match = lobby.challenge_accept(challenge_id=challenge.pk, user=request.user)
            return redirect("gameplay:match", public_id=match.public_id)
        lobby.challenge_decline(challenge_id=challenge.pk, user=request.user)
        messages.success(
            request,
            _("Challenge withdrawn.")
            if challenge.challenger_id == request.user.pk
            else _("Challenge declined."),
        )
    except MatchError as exc:
        _report(request, exc)
    return redirect("gameplay:game_detail", game_id=challenge.game)


@login_required
def vacation(request: SignedInRequest) -> HttpResponse:
    """Take vacation days, or come back early (``gameplay.vacation``)."""
    if request.method == "POST":
        try:
            if request.POST.get("action") == "end":
                services.vacation_end(user=request.user)
                messages.success(request, _("Welcome back: your clocks run again."))
            else:
                raw = request.POST.get("days", "")
                days: object = int(raw) if raw.strip().isdigit() else raw
                away = services.vacation_start(user=request.user, days=days)
                messages.success(
                    request,
                    _("You are on vacation until %(until)s UTC.")
                    % {"until": formats.date_format(away.ends_at, "DATETIME_FORMAT")},
                )
        except MatchError as exc:
            _report(request, exc)
        return redirect("gameplay:vacation")
    status = vacations.vacation_status(user=request.user)
    return render(request, "gameplay/vacation.html", {"status": status})


def _bot_form(match: Match, data: Any = None) -> BotSeatForm:
    """The host's bot menu for ``match``'s table (a rated one seats each bot once)."""
    seated = tuple(s.agent for s in match.seats.all() if s.user_id is None)
    return BotSeatForm(data, game=match.game, rated=match.rated, seated=seated)


def match_page(request: HttpRequest, public_id: str) -> HttpResponse:
    match = selectors.match_by_public_id(public_id=public_id)
    user = request.user if request.user.is_authenticated else None
    seat = selectors.user_seat(match=match, user=user)
    if seat is None and match_is_sealed(match):
        return _sealed_page(request, match)
    context: dict[str, Any] = {
        "match": match,
        "game": _game_or_404(match.game),
        "seat": seat,
        "is_host": user is not None and match.host_id == user.pk,
        "bot_form": _bot_form(match),
        "match_context": describe_match_context(match),
        **_board_assets(match.game),
    }
    if seat is not None and user is not None:
        match_opened.send_robust(sender=Match, match_id=match.pk, user_id=user.pk)
    if match.status != MatchStatus.WAITING:
        # A seat that resigned or was left gets the public view (as on the socket).
        view_seat = selectors.viewer_seat(match=match, user=user)
        frame = (
            frames.seat_frame(match=match, seat=view_seat)
            if view_seat is not None
            else frames.spectator_frame(match=match)
        )
        context.update(
            initial_frame=frame,
            ws_path=f"/ws/match/{match.public_id}/",
            seat_json=json.dumps(view_seat),
            replay_url=reverse("gameplay:replay", args=[match.public_id]),
        )
    return render(request, "gameplay/match.html", context)


@login_required
@require_POST
def table_action(request: SignedInRequest, public_id: str, action: str) -> HttpResponse:
    match = get_object_or_404(Match, public_id=public_id)
    try:
        if action == "join":
            lobby.table_join(match_id=match.pk, user=request.user)
        elif action == "leave":
            lobby.table_leave(match_id=match.pk, user=request.user)
            if match.host_id == request.user.pk:
                messages.success(request, _("Table closed."))
                return redirect("gameplay:game_detail", game_id=match.game)
        elif action == "bot":
            form = _bot_form(match, request.POST)
            if not form.is_valid():
                messages.error(request, _("Choose a bot."))
            else:
                lobby.table_fill_with_bot(
                    match_id=match.pk, user=request.user, bot=form.cleaned_data["bot"]
                )
        elif action == "start":
            lobby.table_start(match_id=match.pk, user=request.user)
        else:
            raise Http404("No such table action.")
    except MatchError as exc:
        _report(request, exc)
    return redirect("gameplay:match", public_id=match.public_id)


def _sealed_page(request: HttpRequest, match: Match) -> HttpResponse:
    return render(
        request,
        "gameplay/sealed.html",
        {
            "match": match,
            "match_context": describe_match_context(match),
            "message": SEALED_MESSAGE,
        },
        status=403,
    )


def replay_page(request: HttpRequest, public_id: str) -> HttpResponse:
    match = selectors.match_by_public_id(public_id=public_id)
    if match_is_sealed(match):
        return _sealed_page(request, match)
    if match.status != MatchStatus.FINISHED:
        return render(
            request, "gameplay/replay_unavailable.html", {"match": match}, status=409
        )
    return render(
        request,
        "gameplay/replay.html",
        {
            "match": match,
            "replay_api": reverse("api-match-replay", args=[match.public_id]),
            "record_url": reverse("gameplay:record", args=[match.public_id]),
            "seats": [(s.number, s.display_name) for s in match.seats.all()],
            "seat_names_json": json.dumps(
                [s.display_name for s in match.seats.order_by("number")]
            ),
            **_board_assets(match.game),
        },
    )


def match_record_download(request: HttpRequest, public_id: str) -> HttpResponse:
    match = selectors.match_by_public_id(public_id=public_id)
    if match.status != MatchStatus.FINISHED:
        # capfirst, not capitalize(): German nouns keep their capitals.
        detail = capfirst(_("the record is published when the match ends"))
        return JsonResponse({"detail": f"{detail}."}, status=409)
    if match_is_sealed(match):
        return JsonResponse({"detail": f"{capfirst(SEALED_MESSAGE)}."}, status=403)
    response = JsonResponse(
        selectors.match_record(match=match), json_dumps_params={"indent": 2}
    )
    response["Content-Disposition"] = (
        f'attachment; filename="match-{match.public_id}.json"'
    )
    return response
