"""Hostile uploads get a clear refusal and leave nothing behind (issue 10, sec. 2)."""

from __future__ import annotations

import pytest

from bots import services
from bots.errors import UploadRefused
from bots.models import BotVersion
from bots.uploads import UploadError, declared_game, inspect_upload
from tests.bots.botsrc import FIRST_LEGAL, zip_bytes

CHAINED_ADDITIONS = b"x = " + b"+".join([b"1"] * 200_000) + b"\n"
MINUS_SIGNS = b"x = " + b"-" * 900_000 + b"1\n"


@pytest.mark.parametrize(
    "source", [CHAINED_ADDITIONS, MINUS_SIGNS], ids=["additions", "minus"]
)
def test_sources_that_blow_up_compile_are_refused_clearly(source):
    assert len(source) < 1024 * 1024  # under the upload limit: compile must cope
    with pytest.raises(UploadError, match="nest too deeply"):
        inspect_upload(filename="bot.py", data=source, game="duelo")
    assert declared_game(source) is None


@pytest.mark.parametrize(
    "files",
    [
        {"main.py": FIRST_LEGAL, "x": b"a file", "x/y": b"inside a folder x"},
        {"main.py": FIRST_LEGAL, "a/b/c.py": b"", "a/b": b"clash deeper down"},
    ],
)
def test_a_name_that_is_both_file_and_folder_is_refused(files):
    with pytest.raises(UploadError, match="both as a file and as a folder"):
        inspect_upload(filename="bot.zip", data=zip_bytes(files), game="duelo")


@pytest.mark.django_db
def test_the_clash_through_the_service_leaves_no_row_and_no_files(owner, media_root):
    data = zip_bytes({"main.py": FIRST_LEGAL, "x": b"1", "x/y": b"2"})
    with pytest.raises(UploadRefused, match="both as a file and as a folder"):
        services.bot_create(
            owner=owner, game="duelo", name="clash", filename="bot.zip", data=data
        )
    assert not BotVersion.objects.exists()
    assert not list(media_root.glob("bots/*"))


@pytest.mark.django_db
def test_a_storage_failure_cleans_up_its_directory(owner, media_root, monkeypatch):
    def half_written(files, target, *, read_only):
        target.mkdir(parents=True)
        (target / "main.py").write_bytes(b"partial")
        raise FileExistsError(17, "File exists", str(target / "x"))

    monkeypatch.setattr(services, "write_bot_tree", half_written)
    with pytest.raises(UploadRefused, match="could not be stored"):
        services.bot_create(
            owner=owner, game="duelo", name="half", filename="bot.py", data=FIRST_LEGAL
        )
    assert not BotVersion.objects.exists()
    assert list((media_root / "bots").iterdir()) == []
