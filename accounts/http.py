"""Request types for views: what the sign-in checks guarantee, told to mypy.

django-stubs types ``request.user`` as a user or AnonymousUser. A view behind
``login_required`` (or DRF's ``IsAuthenticated``) annotates its request as
:class:`SignedInRequest` (:class:`SignedInApiRequest`), so the services that
need a ``User`` get one; code that serves visitors too takes a :data:`Viewer`.
Nothing here runs differently: the classes are annotations only.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from rest_framework.request import Request

from accounts.models import User

#: Whoever makes a request: a signed-in user or a visitor.
Viewer = User | AnonymousUser


class SignedInRequest(HttpRequest):
    """A request that reached a ``login_required`` view."""

    user: User


class SignedInApiRequest(Request):
    """A request that passed DRF's ``IsAuthenticated``."""

    user: User
