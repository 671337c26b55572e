"""Browser tests' server (tests/e2e): the test settings, with a real Celery worker.

The processes the harness starts (uvicorn, a Celery worker) share the test
session's database and Redis, given as DATABASE_URL and REDIS_URL; tasks go to
the worker instead of running eagerly, and mail lands in files the test reads.
"""

from .base import env
from .test import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = False
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = env.str("E2E_MAIL_DIR", default=str(VAR_DIR / "e2e-mail"))  # noqa: F405
# A bot at a table with people moves this long after the previous move (1 s for
# people, base.py): the browser tests' whole games wait out every bot move, so
# a short pace, still through the paced path (a countdown task), saves them
# minutes. tests/gameplay/test_bots_only_pace.py tests the pace itself.
BOT_MOVE_DELAY = env.float("BOT_MOVE_DELAY", default=0.2)
