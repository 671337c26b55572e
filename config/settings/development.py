"""Development: debug on, a fixed throwaway secret, embedded services by default."""

import warnings

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = SECRET_KEY or "dev-only-insecure-secret-key-change-me"  # noqa: F405
# The demo's bots-only "Live now" game moves at a pace a spectator can follow.
BOTS_ONLY_MOVE_DELAY = env.float("BOTS_ONLY_MOVE_DELAY", default=1.5)
# uvicorn serves no static files itself; let WhiteNoise find them in the sources.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Push works on a fresh checkout: a VAPID pair is made once in var/vapid.json.
VAPID_GENERATE = env.bool("VAPID_GENERATE", default=True)

# WhiteNoise serves files with a synchronous iterator; under ASGI Django warns on
# every static file. Harmless here, and noise in `make run`'s log.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)
