"""Top-level URL map: pages, the API under /api/, health and admin."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import api as accounts_api
from config import views
from config.api import ApiRootView, register_api_index
from config.auth_throttle import obtain_auth_token
from config.health import healthz

register_api_index("me", "api-me")
register_api_index("token", "api-token")
register_api_index("schema", "api-schema")
register_api_index("docs", "api-docs")

api_patterns: list[URLPattern | URLResolver] = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("me/", accounts_api.MeView.as_view(), name="api-me"),
    path(
        "users/<str:username>/",
        accounts_api.UserDetailView.as_view(),
        name="api-user-detail",
    ),
    path("", include("gameplay.api_urls")),
    path("", include("league.api_urls")),
    path("", include("league.tournaments.arena.api_urls")),
    path("", include("league.duplicate.api_urls")),
    path("", include("bots.api_urls")),
    path("", include("notifications.api_urls")),
    path("", include("analysis.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        # The split view serves Swagger's start-up script as a file: no inline
        # script for the Content-Security-Policy to refuse.
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
        name="api-docs",
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/", include(api_patterns)),
    path("", include("gameplay.urls")),
    path("", include("league.urls")),
    path("", include("league.duplicate.urls")),
    path("", include("league.tournaments.arena.urls")),
    path("", include("bots.urls")),
    path("", include("notifications.urls")),
    path("", include("analysis.urls")),
    path("", include("community.urls")),
    path("", include("languages.urls")),
]

# The site's own error pages; JSON ({"code", "detail"}) under /api/.
handler400 = "config.error_pages.bad_request"
handler403 = "config.error_pages.permission_denied"
handler404 = "config.error_pages.page_not_found"
handler500 = "config.error_pages.server_error"
