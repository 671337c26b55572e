"""Bot pages: lists, upload, a bot's page, owner logs, source, staff switch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import SignedInRequest
from accounts.models import User
from bots import connected, scrimmages, selectors, services, version_ratings
from bots.errors import BotError
from bots.forms import (
    BotAccountForm,
    BotCreateForm,
    BotSettingsForm,
    BotTokenForm,
    ChallengeBotForm,
    DisableForm,
    ScrimmageForm,
    VersionUploadForm,
    read_upload,
)
from bots.ratings import bot_rating, bot_rating_chart
from gameplay.catalog import game_catalog
from gameplay.errors import MatchError


def bot_list(request: HttpRequest) -> HttpResponse:
    """Every game's uploaded bots, plus the built-in ones with their strengths."""
    games = game_catalog()
    selected = request.GET.get("game") or ""
    if selected and selected not in {g.id for g in games}:
        raise Http404(_("no such game"))
    sections = [
        {
            "game": game,
            "bots": list(selectors.bot_list(game=game.id)),
            "online": connected.online_accounts(game=game.id),
            "ladder": version_ratings.current_versions_ranking(game=game.id),
        }
        for game in games
        if not selected or game.id == selected
    ]
    mine = (
        list(selectors.bot_list(owner=request.user, include_retired=True))
        if request.user.is_authenticated
        else []
    )
    gate_ok, gate_reason = services.sandbox_gate()
    return render(
        request,
        "bots/bot_list.html",
        {
            "games": games,
            "selected": selected,
            "sections": sections,
            "builtins": selectors.builtin_bots(),
            "mine": mine,
            "uploads_open": gate_ok,
            "gate_reason": gate_reason,
        },
    )


def owner_bots(request: HttpRequest, username: str) -> HttpResponse:
    owner = get_object_or_404(User, username=username)
    return render(
        request,
        "bots/owner_bots.html",
        {"owner": owner, "bots": list(selectors.bot_list(owner=owner))},
    )


@login_required
def bot_new(request: SignedInRequest) -> HttpResponse:
    form = BotCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            version = services.bot_create(
                owner=request.user,
                game=form.cleaned_data["game"],
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                source_public=form.cleaned_data["source_public"],
                filename=upload.name,
                data=read_upload(upload),
            )
        except BotError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _(
                    "%(version)s uploaded: it plays its validation games against "
                    "the random bot now."
                )
                % {"version": version},
            )
            return redirect("bots:detail", bot_id=version.bot_id)
    gate_ok, gate_reason = services.sandbox_gate()
    return render(
        request,
        "bots/bot_new.html",
        {
            "form": form,
            "uploads_open": gate_ok,
            "gate_reason": gate_reason,
            "runtimes": selectors.runtime_infos(),
        },
    )


def bot_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = selectors.bot_get(bot_id=bot_id)
    is_owner = selectors.can_see_logs(user=request.user, bot=bot)
    versions = selectors.bot_versions(bot=bot)
    records = selectors.version_records(bot=bot)
    ratings = version_ratings.version_ratings(bot=bot)
    histories = version_ratings.version_histories(bot=bot)
    context = {
        "bot": bot,
        "is_owner": is_owner,
        "can_read_source": selectors.can_read_source(user=request.user, bot=bot),
        "versions": versions,
        "version_rows": [
            (
                v,
                records.get(v.pk),
                ratings.get(v.pk),
                version_ratings.is_provisional(ratings.get(v.pk)),
                histories.get(v.pk, []),
            )
            for v in versions
        ],
        "head_to_head": selectors.bot_head_to_head(bot=bot),
        "runtimes": selectors.runtime_infos() if is_owner else [],
        "record": selectors.bot_record(bot=bot),
        "recent": selectors.bot_recent_matches(bot=bot),
        "rating": bot_rating(bot=bot),
        "chart": bot_rating_chart(bot=bot),
        "upload_form": VersionUploadForm(),
        "settings_form": BotSettingsForm(
            initial={"description": bot.description, "source_public": bot.source_public}
        ),
        "disable_form": DisableForm(),
        "challenge_form": ChallengeBotForm(),
        "can_play": services.live_seat(bot=bot) is not None,
    }
    if is_owner:
        context["data_dir_unavailable"] = services.data_dir_gate()
        context["scrimmage_form"] = _scrimmage_form(bot)
        context["scrimmages"] = scrimmages.scrimmages_of(bot=bot)
    return render(request, "bots/bot_detail.html", context)


@login_required
def bot_logs(request: SignedInRequest, bot_id: int) -> HttpResponse:
    bot = selectors.bot_get(bot_id=bot_id)
    if not selectors.can_see_logs(user=request.user, bot=bot):
        return render(request, "bots/forbidden.html", {"bot": bot}, status=403)
    logs = selectors.bot_logs(bot=bot)
    for log in logs:
        log.refused_lines = selectors.refused_lines(log=log)  # type: ignore[attr-defined]
    return render(
        request,
        "bots/bot_logs.html",
        {"bot": bot, "versions": selectors.bot_versions(bot=bot), "logs": logs},
    )


def bot_source(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    bot = selectors.bot_get(bot_id=bot_id)
    if not selectors.can_read_source(user=request.user, bot=bot):
        return render(request, "bots/forbidden.html", {"bot": bot}, status=403)
    version = get_object_or_404(bot.versions, number=number)
    files = selectors.version_files(version=version)
    path = request.GET.get("file") or "main.py"
    if path not in files:
        raise Http404(_("no such file"))
    return render(
        request,
        "bots/bot_source.html",
        {
            "bot": bot,
            "version": version,
            "files": files,
            "path": path,
            "source": selectors.version_source(version=version, path=path),
        },
    )


@login_required
@require_POST
def bot_version_new(request: SignedInRequest, bot_id: int) -> HttpResponse:
    form = VersionUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file to upload."))
        return redirect("bots:detail", bot_id=bot_id)
    upload = form.cleaned_data["file"]
    try:
        version = services.bot_version_upload(
            bot_id=bot_id,
            user=request.user,
            filename=upload.name,
            data=read_upload(upload),
            keep_data=form.cleaned_data["keep_data"],
        )
    except BotError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Version %(number)s uploaded; validating.") % {"number": version.number},
        )
    return redirect("bots:detail", bot_id=bot_id)


@login_required
@require_POST
def bot_settings(request: SignedInRequest, bot_id: int) -> HttpResponse:
    form = BotSettingsForm(request.POST)
    retire = request.POST.get("retire") == "1"
    try:
        if retire:
            services.bot_update(bot_id=bot_id, user=request.user, retired=True)
            messages.success(
                request, _("The bot is retired; it plays no more matches.")
            )
        elif form.is_valid():
            services.bot_update(
                bot_id=bot_id,
                user=request.user,
                description=form.cleaned_data["description"],
                source_public=form.cleaned_data["source_public"],
            )
            messages.success(request, _("Settings saved."))
    except BotError as exc:
        messages.error(request, exc.message)
    return redirect("bots:detail", bot_id=bot_id)


@login_required
@require_POST
def bot_disable(request: SignedInRequest, bot_id: int) -> HttpResponse:
    form = DisableForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    disable = request.POST.get("disabled", "1") == "1"
    try:
        services.bot_set_disabled(
            bot_id=bot_id, staff=request.user, disabled=disable, reason=reason
        )
    except BotError as exc:
        messages.error(request, exc.message)
        return redirect("bots:detail", bot_id=bot_id)
    messages.success(
        request, _("Bot disabled.") if disable else _("Bot enabled again.")
    )
    return redirect("bots:detail", bot_id=bot_id)


@login_required
@require_POST
def bot_challenge(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """Play this bot now: it accepts at once and the page goes to the game."""
    form = ChallengeBotForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Seconds per move: a whole number from 5 to 3600."))
        return redirect("bots:detail", bot_id=bot_id)
    per_move = form.cleaned_data.get("per_move")
    try:
        match = services.bot_challenge(
            user=request.user,
            bot_id=bot_id,
            rated=form.cleaned_data["rated"],
            time_control={"per_move": per_move} if per_move else {},
        )
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("bots:detail", bot_id=bot_id)
    return redirect("gameplay:match", public_id=match.public_id)


def bot_doc(request: HttpRequest, slug: str) -> HttpResponse:
    """A bot author's document (docs/*.md) as a page of the site."""
    from bots import docs

    doc = docs.BY_SLUG.get(slug)
    if doc is None:
        raise Http404(_("No such document."))
    return render(
        request,
        "bots/doc.html",
        {"doc": doc, "docs": docs.DOCS, "html": docs.render_doc(doc)},
    )


def _connected_page(
    request: SignedInRequest,
    *,
    form: BotAccountForm | None = None,
    issued: connected.IssuedToken | None = None,
    status: int = 200,
) -> HttpResponse:
    accounts = connected.accounts_of(owner=request.user)
    return render(
        request,
        "bots/connected.html",
        {
            "accounts": [
                {
                    "account": account,
                    "online": connected.bot_account_online(account_id=account.pk),
                    "tokens": list(account.tokens.all()),
                }
                for account in accounts
            ],
            "form": form or BotAccountForm(),
            "token_form": BotTokenForm(),
            "issued": issued,
        },
        status=status,
    )


@login_required
def connected_bots(request: SignedInRequest) -> HttpResponse:
    """The owner's connected bots: make one (its token is shown once), list
    them with their tokens."""
    if request.method != "POST":
        return _connected_page(request)
    form = BotAccountForm(request.POST)
    if not form.is_valid():
        return _connected_page(request, form=form, status=400)
    try:
        issued = connected.bot_account_create(
            owner=request.user,
            name=form.cleaned_data["name"],
            game=form.cleaned_data["game"],
            scopes=form.cleaned_data["scopes"],
        )
    except BotError as exc:
        form.add_error(None, exc.message)
        return _connected_page(request, form=form, status=400)
    # Rendered, not redirected: the key is on this one page and nowhere else.
    return _connected_page(request, issued=issued)


@login_required
@require_POST
def connected_token_new(request: SignedInRequest, account_id: int) -> HttpResponse:
    form = BotTokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose at least one scope for the token."))
        return redirect("bots:connected")
    try:
        issued = connected.bot_token_issue(
            owner=request.user,
            account_id=account_id,
            scopes=form.cleaned_data["scopes"],
        )
    except BotError as exc:
        messages.error(request, exc.message)
        return redirect("bots:connected")
    return _connected_page(request, issued=issued)


@login_required
@require_POST
def connected_token_revoke(request: SignedInRequest, token_id: int) -> HttpResponse:
    try:
        token = connected.bot_token_revoke(owner=request.user, token_id=token_id)
    except BotError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Token %(prefix)s… revoked: it works no more.")
            % {"prefix": token.prefix},
        )
    return redirect("bots:connected")


def _scrimmage_form(bot, data=None) -> ScrimmageForm:
    return ScrimmageForm(
        data,
        opponents=scrimmages.scrimmage_opponents(bot=bot),
        versions=[v for v in bot.versions.all() if v.status in scrimmages.PLAYABLE],
    )


@login_required
@require_POST
def scrimmage_new(request: SignedInRequest, bot_id: int) -> HttpResponse:
    """Start a scrimmage; its page shows the games as they are played."""
    bot = selectors.bot_get(bot_id=bot_id)
    form = _scrimmage_form(bot, request.POST)
    if not form.is_valid():
        messages.error(
            request,
            "Scrimmage: "
            + "; ".join(
                f"{field}: {' '.join(str(m) for m in errors)}"
                for field, errors in form.errors.items()
            ),
        )
        return redirect("bots:detail", bot_id=bot_id)
    try:
        scrimmage = scrimmages.scrimmage_create(
            user=request.user,
            bot_id=bot_id,
            opponent=form.cleaned_data["opponent"],
            games=form.cleaned_data["games"],
            version_number=form.cleaned_data["version"],
        )
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("bots:detail", bot_id=bot_id)
    return redirect("bots:scrimmage", bot_id=bot_id, scrimmage_id=scrimmage.pk)


@login_required
def scrimmage_detail(
    request: SignedInRequest, bot_id: int, scrimmage_id: int
) -> HttpResponse:
    bot = selectors.bot_get(bot_id=bot_id)
    if not selectors.can_see_logs(user=request.user, bot=bot):
        return render(request, "bots/forbidden.html", {"bot": bot}, status=403)
    scrimmage = scrimmages.scrimmage_get(bot=bot, scrimmage_id=scrimmage_id)
    games = scrimmages.scrimmage_games(scrimmage=scrimmage)
    return render(
        request,
        "bots/scrimmage.html",
        {
            "bot": bot,
            "scrimmage": scrimmage,
            "games": games,
            "summary": scrimmages.scrimmage_summary(games),
        },
    )
