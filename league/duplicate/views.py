"""Duplicate event pages: the list with the organiser's form, and an event's
page (players, rounds, tables, commitments, and after each round its seeds
and every deal's results with matchpoints and par)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from gameplay.catalog import game_catalog
from gameplay.rules.bots import bot_display_name
from league.duplicate import selectors, services
from league.duplicate.forms import DuplicateEventForm
from league.duplicate.live import live_version
from league.duplicate.models import EventStatus
from league.errors import LeagueError


def _games() -> dict[str, str]:
    return {g.id: g.name for g in game_catalog()}


def event_list(request: HttpRequest) -> HttpResponse:
    form = DuplicateEventForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('accounts:login')}?next={request.path}")
        form = DuplicateEventForm(request.POST)
        if form.is_valid():
            try:
                event = services.duplicate_event_create(
                    by=request.user, **form.cleaned_data
                )
            except LeagueError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("%(name)s created.") % {"name": event.name})
                return redirect("duplicate:event", slug=event.slug)
    return render(
        request,
        "duplicate/event_list.html",
        {"events": selectors.event_list(), "form": form, "game_names": _games()},
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = selectors.event_by_slug(slug=slug)
    players = selectors.event_players(event=event)
    user = request.user
    joined = user.is_authenticated and any(p.user_id == user.pk for p in players)
    return render(
        request,
        "duplicate/event_detail.html",
        {
            "event": event,
            "game_name": _games().get(event.game, event.game),
            "par_name": bot_display_name(event.par_bot),
            "players": players,
            "joined": joined,
            "is_organiser": user.is_authenticated and user.pk == event.organiser_id,
            "is_open": event.status == EventStatus.OPEN,
            "rounds": selectors.round_views(event=event),
            "standings": selectors.event_standings(event=event),
            "names": {p.user_id: p.user.public_name for p in players},
            "my_games": selectors.current_games_of(user=user, event=event),
            "live_version": live_version(event),
        },
    )


@login_required
@require_POST
def event_action(request: SignedInRequest, slug: str, action: str) -> HttpResponse:
    event = selectors.event_by_slug(slug=slug)
    try:
        if action == "join":
            services.duplicate_event_join(event=event, user=request.user)
            messages.success(request, _("You are in."))
        elif action == "leave":
            services.duplicate_event_leave(event=event, user=request.user)
            messages.success(request, _("You left the event."))
        elif action == "start":
            services.duplicate_event_start(event=event, by=request.user)
            messages.success(request, _("Round 1 is dealt."))
        elif action == "close-round":
            rnd = services.duplicate_round_close(event=event, by=request.user)
            messages.success(
                request, _("Round %(number)s ended.") % {"number": rnd.number}
            )
        else:
            messages.error(request, _("No such action."))
    except LeagueError as exc:
        messages.error(request, str(exc))
    return redirect("duplicate:event", slug=event.slug)
