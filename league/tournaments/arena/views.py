"""Arena pages: the list with the creation form, and one arena's page (join,
step out, berserk, standings with fire, games to watch). Thin: services decide."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.http import SignedInRequest
from gameplay.catalog import game_catalog
from gameplay.rules.bots import available_bots, bot_display_name
from league.errors import Invalid, LeagueError
from league.models import ParticipantKind
from league.participants import bot_directory
from league.tournaments.arena import selectors, services
from league.tournaments.arena.forms import ArenaForm
from league.tournaments.arena.models import Arena, ArenaGameStatus
from league.views import league_action


def _games() -> dict[str, str]:
    return {g.id: g.name for g in game_catalog()}


def _time_control(data: dict) -> dict[str, int]:
    """The form's clock and increment as a time control (none without a clock;
    an increment alone is refused by the service with its reason)."""
    out = {}
    if data.get("clock"):
        out["total"] = data["clock"]
    if data.get("increment"):
        out["increment"] = data["increment"]
    return out


def arena_list(request: HttpRequest) -> HttpResponse:
    form = ArenaForm()
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('accounts:login')}?next={request.path}")
        form = ArenaForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            now = timezone.now()
            try:
                arena = services.arena_create(
                    by=request.user,
                    name=data["name"],
                    game=data["game"],
                    minutes=data["minutes"],
                    starts_at=now + timedelta(minutes=data["starts_in"] or 0),
                    participants=data["participants"],
                    rated=data["rated"],
                    berserk=data["berserk"],
                    time_control=_time_control(data),
                    now=now,
                )
            except LeagueError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("%(name)s created.") % {"name": arena.name})
                return redirect("arena:detail", arena.slug)
        status = 400
    arenas = list(Arena.objects.all()[:100])
    return render(
        request,
        "arena/arena_list.html",
        {"arenas": arenas, "form": form, "game_names": _games()},
        status=status,
    )


def arena_detail(request: HttpRequest, slug: str) -> HttpResponse:
    arena = get_object_or_404(Arena, slug=slug)
    user = request.user
    mine = selectors.player_entries(arena, user)  # type: ignore[arg-type]
    me = next((p for p in mine if not p.participant.is_bot), None)
    my_bots = [p for p in mine if p.participant.is_bot]
    directory = bot_directory()
    taken = {p.participant.bot_id for p in my_bots}
    enterable_bots = []
    if (
        user.is_authenticated
        and directory is not None
        and arena.participants != ParticipantKind.HUMANS
    ):
        enterable_bots = [
            b
            for b in directory.bots_owned_by(user.pk, arena.game)
            if b.bot_id not in taken
        ]
    context = {
        "arena": arena,
        "game_name": _games().get(arena.game, arena.game),
        "standings": selectors.standings(arena),
        "playing": selectors.games(arena, status=ArenaGameStatus.PLAYING),
        "finished": selectors.games(arena, status=ArenaGameStatus.DONE, limit=20),
        "live_version": selectors.live_version(arena),
        "me": me,
        "my_game": selectors.current_game_of(me) if me else None,
        "my_bots": my_bots,
        "enterable_bots": enterable_bots,
        "people_allowed": arena.participants != ParticipantKind.BOTS,
        "berserk_possible": services.berserk_possible(arena),
        "is_creator": user.is_authenticated and user.pk == arena.created_by_id,
        "builtin_bots": [(n, bot_display_name(n)) for n in available_bots()],
        "time_up": timezone.now() >= arena.ends_at,
    }
    return render(request, "arena/arena_detail.html", context)


def _bot_id(request: HttpRequest) -> int | None:
    raw = request.POST.get("bot_id") or ""
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise Invalid(_("choose one of your bots"))
    return int(raw)


@league_action
def arena_action(request: SignedInRequest, slug: str, action: str):
    arena = get_object_or_404(Arena, slug=slug)
    target = reverse("arena:detail", args=[slug])
    bot_id = _bot_id(request)
    user = request.user
    if action == "join":
        player = services.arena_join(arena=arena, user=user, bot_id=bot_id)
        return target, f"{player} joined the arena."
    if action == "leave":
        services.arena_leave(arena=arena, user=user, bot_id=bot_id)
        return target, "Left the arena."
    if action in ("pause", "resume"):
        paused = action == "pause"
        services.arena_pause(arena=arena, user=user, bot_id=bot_id, paused=paused)
        return target, (
            "Paused: no new games until you come back." if paused else "Back in."
        )
    if action in ("berserk-on", "berserk-off"):
        on = action == "berserk-on"
        services.arena_set_berserk(arena=arena, user=user, bot_id=bot_id, berserk=on)
        return target, (
            "Berserk: your next games start with half your clock."
            if on
            else "Berserk off."
        )
    if action == "add-builtin":
        player = services.arena_add_builtin(
            arena=arena, by=user, name=(request.POST.get("builtin") or "")[:40]
        )
        return target, f"{player} joined the arena."
    raise Invalid(_("unknown action %(action)s") % {"action": repr(action)})
