"""The REST API root: every app's endpoints listed in one browsable index."""

from __future__ import annotations

from collections import OrderedDict

from django.urls import NoReverseMatch, reverse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# (label, url name): apps append to this in their urls modules.
API_INDEX: list[tuple[str, str]] = []


def register_api_index(label: str, url_name: str) -> None:
    if (label, url_name) not in API_INDEX:
        API_INDEX.append((label, url_name))


class ApiRootView(APIView):
    """Kung Fu Arena's public API. Authenticate with `Authorization: Token <key>`."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        index = OrderedDict()
        for label, url_name in API_INDEX:
            try:
                index[label] = request.build_absolute_uri(reverse(url_name))
            except NoReverseMatch:
                continue
        return Response(index)


def api_exception_handler(exc, context):
    """DRF's handler, plus service errors as `{"code", "detail"}` with their status."""
    from rest_framework.views import exception_handler

    from config.errors import ServiceError

    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "detail": exc.message}, status=exc.status)
    return exception_handler(exc, context)
