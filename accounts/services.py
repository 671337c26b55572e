"""Account writes: creating players and managing their API tokens."""

from django.db import transaction
from rest_framework.authtoken.models import Token

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
def api_token_regenerate(*, user: User) -> Token:
    """Replace the user's API token; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_token_revoke(*, user: User) -> None:
    Token.objects.filter(user=user).delete()
