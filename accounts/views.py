"""Account pages: sign-up, profile, API tokens. Thin: forms and services do the work."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import ProfileForm, SignUpForm
from accounts.http import SignedInRequest
from accounts.profile import profile_sections


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile", username=request.user.username)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        user = services.user_sign_up(
            username=form.cleaned_data["username"],
            email=email,
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data.get("display_name", ""),
            site=f"{request.scheme}://{request.get_host()}",
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        # The same words whether or not the address already had an account.
        messages.success(
            request,
            _("Welcome to Kung Fu Arena, %(name)s! We sent a message to %(email)s.")
            % {"name": user.public_name, "email": email},
        )
        return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = selectors.user_by_username(username=username)
    return render(
        request,
        "accounts/profile.html",
        {"profile_user": user, "sections": profile_sections(user=user)},
    )


@login_required
def profile_edit(request: SignedInRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Profile saved."))
        return redirect("accounts:profile", username=request.user.username)
    return render(request, "accounts/profile_edit.html", {"form": form})


@login_required
def api_tokens(request: SignedInRequest) -> HttpResponse:
    token = selectors.api_token_for(user=request.user)
    return render(request, "accounts/api_tokens.html", {"token": token})


@login_required
@require_POST
def api_token_regenerate(request: SignedInRequest) -> HttpResponse:
    services.api_token_regenerate(user=request.user)
    messages.success(
        request, _("A new API token was created; the old one no longer works.")
    )
    return redirect("accounts:api_tokens")


@login_required
@require_POST
def api_token_revoke(request: SignedInRequest) -> HttpResponse:
    services.api_token_revoke(user=request.user)
    messages.success(request, _("Your API token was revoked."))
    return redirect("accounts:api_tokens")
