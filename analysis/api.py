"""``/api/matches/<id>/analysis/``: read (anyone) or request (signed in)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import selectors, services
from gameplay.errors import BadRequest
from gameplay.selectors import match_by_public_id

PERSPECTIVE = OpenApiParameter(
    "perspective",
    str,
    description="full (default), spectator or seat:N (what seat N knew)",
)


class MatchAnalysisView(APIView):
    """The post-game analysis of a finished match (docs/analysis.md).

    GET: its status, progress and, once done, every decision's menu with the
    estimated win share of each action. POST: ask for it (queued once per
    match and analysis version). A match in play: 403, nothing computed.
    """

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(parameters=[PERSPECTIVE], responses={200: dict})
    def get(self, request: Request, public_id) -> Response:
        match = match_by_public_id(public_id=str(public_id))
        try:
            body = selectors.analysis_view(
                match=match, perspective=request.query_params.get("perspective")
            )
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        return Response(body)

    @extend_schema(request=None, parameters=[PERSPECTIVE], responses={202: dict})
    def post(self, request: Request, public_id) -> Response:
        match = match_by_public_id(public_id=str(public_id))
        services.analysis_request(match=match)
        try:
            body = selectors.analysis_view(
                match=match, perspective=request.query_params.get("perspective")
            )
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        return Response(body, status=status.HTTP_202_ACCEPTED)
