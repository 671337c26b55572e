"""Account reads."""

from django.shortcuts import get_object_or_404
from rest_framework.authtoken.models import Token

from accounts.models import User


def user_by_username(*, username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True)


def name_imitated(*, name: str, exclude: User | None = None) -> bool:
    """Whether ``name`` would look like another player's public name.

    Compared by skeleton (accounts.names): case, spacing, accents and look-alike
    letters do not make two names different.
    """
    from accounts.names import name_skeleton

    skeleton = name_skeleton(name)
    others = User.objects.filter(name_skeleton=skeleton)
    if exclude is not None and exclude.pk is not None:
        others = others.exclude(pk=exclude.pk)
    return bool(skeleton) and others.exists()


def email_in_use(*, email: str, exclude: User | None = None) -> bool:
    others = User.objects.filter(email__iexact=email.strip())
    if exclude is not None and exclude.pk is not None:
        others = others.exclude(pk=exclude.pk)
    return others.exists()


def api_token_for(*, user: User) -> Token | None:
    return Token.objects.filter(user=user).first()
