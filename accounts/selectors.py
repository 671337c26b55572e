"""Account reads."""

from django.shortcuts import get_object_or_404
from rest_framework.authtoken.models import Token

from accounts.models import User


def user_by_username(*, username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True)


def api_token_for(*, user: User) -> Token | None:
    return Token.objects.filter(user=user).first()
