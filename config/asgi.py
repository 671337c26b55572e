"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")
# Django must be set up before the consumers (and their models) are imported.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config import heap  # noqa: E402
from config.middleware import BodySizeLimit  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.ws_auth import socket_auth_stack  # noqa: E402
from config.ws_security import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Bodies over REQUEST_MAX_BODY_BYTES are refused before Django reads them.
        "http": BodySizeLimit(django_asgi_app),
        "websocket": SameOriginValidator(
            # The session cookie's user in one database call (config/ws_auth.py).
            # types-channels wants its own URLPattern subclass (a stub-only
            # name) where Channels takes Django's path()/re_path() results.
            socket_auth_stack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)

# Everything loaded so far lives as long as the process: out of the garbage
# collector's full passes (config/heap.py).
heap.settle()
