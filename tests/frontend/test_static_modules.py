"""static/js is served as ES modules: a JS type, and hashed imports in production."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "path",
    ["js/live-match.js", "js/boards/common.js", "js/boards/data/kungfu2009-cards.js"],
)
def test_modules_are_served_with_a_javascript_type(path: str) -> None:
    # A browser refuses a module script whose type is not JavaScript.
    response = Client().get("/static/" + path)
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == "text/javascript"


def test_production_storage_hashes_the_modules_imports(tmp_path: Path) -> None:
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    board = (tmp_path / paths["js/boards/kungfu2009.js"]).read_text()
    page = (tmp_path / paths["js/live-match.js"]).read_text()
    common = Path(paths["js/boards/common.js"]).name
    data = Path(paths["js/boards/data/kungfu2009-cards.js"]).name
    assert re.search(rf'from "\./{re.escape(common)}";', board), board[:2000]
    assert re.search(rf'from "\./data/{re.escape(data)}";', board)
    # The page and the board import the one common module (one URL, one copy).
    assert re.search(rf'from "\./boards/{re.escape(common)}";', page)
