"""``gameplay/rules`` must stay pure Python: no Django, no other project package."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import gameplay.rules

RULES_DIR = Path(gameplay.rules.__file__).parent
PROJECT_PACKAGES = ("config", "league", "bots", "accounts", "templates", "tests")


def test_importing_every_engine_loads_no_django_or_project_module() -> None:
    code = (
        "import sys, json\n"
        "import gameplay.rules as r\n"
        "for g in r.available_games():\n"
        "    r.get_game(g)\n"
        "import gameplay.rules.duelo, gameplay.rules.rng, gameplay.rules.base\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=RULES_DIR.parent.parent,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(RULES_DIR.parent.parent)},
    )
    modules = json.loads(out.stdout.strip().splitlines()[-1])
    bad = [
        m
        for m in modules
        if m.split(".")[0] in ("django", "rest_framework", "channels", "celery")
        or m.split(".")[0] in PROJECT_PACKAGES
        or (m.startswith("gameplay.") and not m.startswith("gameplay.rules"))
    ]
    assert bad == []
    assert "gameplay.rules.duelo" in modules


FORBIDDEN_TOP = {"django", "rest_framework", "channels", "celery", *PROJECT_PACKAGES}
# The engines themselves use the standard library only; tools living in the
# package (simulator, bots) may use third-party helpers such as tqdm.
CORE = {"__init__.py", "base.py", "errors.py", "meta.py", "rng.py"}


def _engine_files() -> list[Path]:
    """The shared core plus every module of each game's package except its bot
    helpers (the modules its META names for the heuristic and the playouts)."""
    files = [RULES_DIR / name for name in sorted(CORE)]
    for game_id in gameplay.rules.available_games():
        package = gameplay.rules._PACKAGES[game_id]
        meta = gameplay.rules.game_meta(game_id)
        helpers = {meta.heuristic, meta.rollout, meta.playout, meta.evaluate}
        folder = RULES_DIR / package.rsplit(".", 1)[1]
        for path in sorted(folder.glob("*.py")):
            if f"{package}.{path.stem}" not in helpers:
                files.append(path)
    return files


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.append(node.module or "")
    return names


def test_no_module_of_the_package_imports_django_or_the_project() -> None:
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in FORBIDDEN_TOP, f"{path} imports {name}"
            if top == "gameplay":
                assert name.startswith("gameplay.rules"), f"{path} imports {name}"


def test_engine_modules_import_only_the_standard_library() -> None:
    files = _engine_files()
    assert RULES_DIR / "duelo" / "engine.py" in files
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            ok = top in sys.stdlib_module_names or name.startswith("gameplay.rules")
            assert ok, f"{path} imports {name}"
