"""Account writes: creating players and managing their API tokens."""

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from accounts import selectors
from accounts.models import User


@transaction.atomic
def user_create(
    *, username: str, email: str, password: str, display_name: str = ""
) -> User:
    """Create a player; the password is hashed, never stored as given."""
    return User.objects.create_user(
        username=username, email=email, password=password, display_name=display_name
    )


@transaction.atomic
def user_sign_up(
    *, username: str, email: str, password: str, display_name: str = "", site: str
) -> User:
    """Create a player from the sign-up form without telling whether ``email`` is
    already in use.

    The answer and the mail are alike either way: a new address is stored and
    gets a welcome; an address that another account has is not stored on the new
    account (one account per address), and its owner is told that someone tried,
    with the way to their own account. ``site`` is the scheme and host for links.
    """
    taken = selectors.email_in_use(email=email)
    user = user_create(
        username=username,
        email="" if taken else email,
        password=password,
        display_name=display_name,
    )
    template = (
        "accounts/signup_email_taken.txt"
        if taken
        else ("accounts/signup_email_welcome.txt")
    )
    body = render_to_string(
        template,
        {
            "user": user,
            "login_url": site + reverse("accounts:login"),
            "reset_url": site + reverse("accounts:password_reset"),
            "profile_url": site + reverse("accounts:profile_edit"),
        },
    )
    subject = gettext("Your Kung Fu Arena sign-up")
    transaction.on_commit(
        lambda: send_mail(
            subject,
            body,
            settings.DEFAULT_FROM_EMAIL,
            [email],
            fail_silently=True,
        )
    )
    return user


@transaction.atomic
def api_token_regenerate(*, user: User) -> Token:
    """Replace the user's API token; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_token_revoke(*, user: User) -> None:
    Token.objects.filter(user=user).delete()
