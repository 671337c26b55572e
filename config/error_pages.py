"""The site's own error answers: JSON under /api/, the site's pages elsewhere.

Django's defaults answer an unknown URL or a crash with bare HTML, also under
/api/, where clients expect ``{"code", "detail"}`` as every other API error is
answered (``config.api.api_exception_handler``). Wired as ``handler400/403/404/500``
in ``config/urls.py``; the bad-input middleware uses them too.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

API_PREFIX = "/api/"

_DETAILS = {
    400: ("bad_request", "The request could not be understood."),
    403: ("forbidden", "You may not do that."),
    404: ("not_found", "There is nothing at this address."),
    413: ("too_large", "The request body is larger than this server accepts."),
    500: ("server_error", "Something went wrong on our side; it has been logged."),
}


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(status: int, detail: str | None = None) -> JsonResponse:
    code, default = _DETAILS[status]
    return JsonResponse({"code": code, "detail": detail or default}, status=status)


def _page(request: HttpRequest, status: int, *, with_context: bool = True):
    template = loader.get_template(f"{status}.html")
    _code, detail = _DETAILS[status]
    context = {"status": status, "detail": detail}
    if not with_context:  # a crash: render without context processors
        return HttpResponse(template.render(context), status=status)
    return HttpResponse(template.render(context, request), status=status)


@requires_csrf_token
def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    return api_error(400) if is_api(request) else _page(request, 400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception=None) -> HttpResponse:
    return api_error(403) if is_api(request) else _page(request, 403)


@requires_csrf_token
def page_not_found(request: HttpRequest, exception=None) -> HttpResponse:
    return api_error(404) if is_api(request) else _page(request, 404)


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error(500)
    return _page(request, 500, with_context=False)
