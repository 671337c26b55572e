# Production image: one image, three roles (web, worker, beat) chosen by command.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

# bubblewrap and libseccomp: the bot sandbox; curl: container health checks.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap libseccomp2 curl gcc \
    && rm -rf /var/lib/apt/lists/*

# The platform runs as an installed package (every app, and the native kernels
# setup.py builds), never from a copy of the sources that would shadow it:
# tests/config/test_packaging.py builds from exactly what is copied here.
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY config ./config
COPY accounts ./accounts
COPY gameplay ./gameplay
COPY league ./league
COPY bots ./bots
COPY notifications ./notifications
COPY analysis ./analysis
COPY community ./community
COPY languages ./languages
RUN pip install . && rm -rf /src
WORKDIR /app
ENV ARENA_DIR=/app
# Bots see the standard library only: the sandbox covers every site-packages
# directory of the bots' interpreter (where the platform itself is installed)
# with an empty one. Fail the build if that would miss the platform's.
RUN python -I -c "import bots, sys; from bots.sandbox.bwrap import site_package_dirs; \
    from pathlib import Path; d = site_package_dirs('/usr/local/bin/python3'); \
    sys.exit(not any(Path(bots.__file__).is_relative_to(p) for p in d))"
# The libraries C and C++ bots link against (musl, libc++, compiler-rt) and
# wasi-libc, built once by zig from our own source, readable by the sandbox's
# uids (docs/bots.md, "For operators").
ENV BOT_TOOLCHAIN_DIR=/var/cache/kungfu-arena/toolchains
RUN python -m bots.runtimes.prepare && chmod -R a+rX /var/cache/kungfu-arena
# The project directory (ARENA_DIR, config/paths.py): the templates, the
# static files, the docs pages the site renders, and manage.py.
COPY manage.py ./
COPY templates ./templates
COPY static ./static
COPY docs ./docs
COPY locale ./locale

# collectstatic needs settings that load; these build-time values never ship.
RUN SECRET_KEY=build DATABASE_URL=postgres://build@localhost/build \
    REDIS_URL=redis://localhost:6379/0 ALLOWED_HOSTS=build \
    python manage.py collectstatic --no-input

RUN useradd --system --uid 10001 --home /app arena && chown -R arena /app
USER arena
EXPOSE 8000
# Sans-I/O websockets without per-message deflate: ~12% and ~11% less CPU per
# live move (docs/performance.md); frames are 1-2 KB, deflate saves little.
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", \
     "--ws", "websockets-sansio", "--ws-per-message-deflate", "false", \
     "--ws-max-size", "65536", "--proxy-headers", "--lifespan", "off"]
