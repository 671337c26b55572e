"""Account endpoints of the public API."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import RetrieveAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors
from accounts.http import SignedInApiRequest
from accounts.models import User


class PublicUserSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="public_name", read_only=True)

    class Meta:
        model = User
        fields: tuple[str, ...] = ("username", "name", "date_joined")


class MeSerializer(PublicUserSerializer):
    class Meta(PublicUserSerializer.Meta):
        fields = (*PublicUserSerializer.Meta.fields, "email", "is_staff")


class MeView(APIView):
    """The authenticated caller's own account."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request: SignedInApiRequest) -> Response:
        return Response(MeSerializer(request.user).data)


class UserDetailView(RetrieveAPIView):
    """A player's public account data."""

    permission_classes = [AllowAny]
    serializer_class = PublicUserSerializer
    lookup_field = "username"

    def get_object(self) -> User:
        return selectors.user_by_username(username=self.kwargs["username"])
