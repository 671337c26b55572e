"""An installed copy of the platform is whole: ``pip install .`` (what the
Dockerfile runs) carries every app, and that copy, with no source tree beside
it, passes ``manage.py check`` and has every migration."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "config",
    "accounts",
    "gameplay",
    "league",
    "bots",
    "notifications",
    "analysis",
    "community",
    "languages",
)
PROJECT_DIRS = ("templates", "static", "docs", "locale")


def _dockerfile_copies() -> tuple[list[str], list[str]]:
    """Sources the Dockerfile copies before ``pip install .`` and after it."""
    before: list[str] = []
    after: list[str] = []
    target = before
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("RUN pip install ."):
            target = after
        elif line.startswith("COPY "):
            target.extend(line.split()[1:-1])
    return before, after


def test_every_app_is_packaged_and_the_dockerfile_installs_it() -> None:
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
        "setuptools"
    ]["packages"]["find"]["include"]
    assert sorted(p.removesuffix("*") for p in include) == sorted(APPS)
    before, after = _dockerfile_copies()
    assert {"pyproject.toml", "setup.py", *APPS} <= set(before)
    # Nothing of the sources after the install: they would shadow the copy.
    assert not set(after) & set(APPS) and "." not in after
    assert {"manage.py", *PROJECT_DIRS} <= set(after)
    assert re.search(r"^ENV ARENA_DIR=/app$", (ROOT / "Dockerfile").read_text(), re.M)


CHECK = textwrap.dedent(
    """
    import importlib, sys
    site = sys.argv[1]
    sys.path.insert(0, site)
    import django
    django.setup()
    from django.core.management import call_command
    for app in {apps!r}:
        where = importlib.import_module(app).__file__
        assert where.startswith(site), (app, where)
    call_command("check", fail_level="WARNING")
    # Every migration is in the copy: nothing left for makemigrations to write.
    call_command("makemigrations", check=True, dry_run=True, verbosity=0)
    for game in {kernels!r}:
        kernel = importlib.import_module(f"gameplay.rules.{{game}}._fastplay")
        assert kernel.__file__.startswith(site), kernel.__file__
    print("installed copy OK")
    """
)


def _built_kernels() -> list[str]:
    """Games whose native kernel this checkout's build produced (the compiler
    may be missing: setup.py makes every kernel optional)."""
    out = []
    for source in sorted((ROOT / "gameplay" / "rules").glob("*/_fastplay.c")):
        game = source.parent.name
        try:
            __import__(f"gameplay.rules.{game}._fastplay")
        except ImportError:
            continue
        out.append(game)
    return out


@pytest.mark.slow
def test_an_installed_copy_runs_check_outside_the_checkout(tmp_path) -> None:
    # Build from exactly what the Dockerfile copies before `pip install .`.
    src = tmp_path / "src"
    src.mkdir()
    before, _ = _dockerfile_copies()
    for name in before:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(
                path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.so")
            )
        else:
            shutil.copy2(path, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    # The build uses this environment's setuptools (no index, no download).
    subprocess.run(
        [
            *pip,
            *("wheel", "--no-deps", "--no-build-isolation", "--no-index"),
            *("-w", str(tmp_path / "wheel"), str(src)),
        ],
        check=True,
        cwd=tmp_path,
    )
    [wheel] = (tmp_path / "wheel").glob("*.whl")
    site = tmp_path / "site"
    subprocess.run(
        [*pip, "install", "--no-deps", "--no-index", "--target", str(site), wheel],
        check=True,
        cwd=tmp_path,
    )
    # The project directory the image ships beside the installed packages.
    project = tmp_path / "project"
    for name in PROJECT_DIRS:
        shutil.copytree(ROOT / name, project / name)
    run = tmp_path / "run"
    run.mkdir()
    env = {
        **os.environ,
        "ARENA_DIR": str(project),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "redis://127.0.0.1:1/0",  # never connected: check only
    }
    script = CHECK.format(apps=APPS, kernels=_built_kernels())
    # -I: neither the working directory nor PYTHONPATH is on the path, so only
    # the installed copy (and this environment's dependencies) can be imported.
    done = subprocess.run(
        [sys.executable, "-I", "-c", script, str(site)],
        cwd=run,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "installed copy OK" in done.stdout
