"""Upload checks: every refusal is clear, and nothing is accepted half-way."""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.uploads import (
    MAX_FILES,
    MAX_UNPACKED_BYTES,
    MAX_UPLOAD_BYTES,
    UploadError,
    declared_game,
    inspect_upload,
)
from tests.bots.botsrc import FIRST_LEGAL, zip_bytes


def test_single_file_becomes_main_py_with_checksum():
    bot = inspect_upload(filename="mine.py", data=FIRST_LEGAL, game="duelo")
    assert bot.files == {"main.py": FIRST_LEGAL}
    assert len(bot.sha256) == 64
    assert bot.upload_bytes == len(FIRST_LEGAL)


def test_zip_with_helper_module_and_folder_wrapper():
    data = zip_bytes({"mybot/main.py": FIRST_LEGAL, "mybot/lib/helper.py": "X = 1\n"})
    bot = inspect_upload(filename="mybot.zip", data=data, game="duelo")
    assert set(bot.files) == {"main.py", "lib/helper.py"}


def test_oversized_upload_refused():
    data = b"#" * (MAX_UPLOAD_BYTES + 1)
    with pytest.raises(UploadError, match="at most 1 MiB"):
        inspect_upload(filename="big.py", data=data, game="duelo")


def test_zip_bomb_refused_by_counting_real_bytes():
    # 6 MiB of zeros compress to a few KiB: small upload, huge content.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("main.py", FIRST_LEGAL)
        archive.writestr("data.bin", b"\0" * (MAX_UNPACKED_BYTES + 1))
    assert len(buffer.getvalue()) < MAX_UPLOAD_BYTES
    with pytest.raises(UploadError, match="exceed 5 MiB"):
        inspect_upload(filename="bomb.zip", data=buffer.getvalue(), game="duelo")


def test_zip_bomb_with_lying_header_refused():
    """A member whose declared size is small but whose stream is large."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("main.py", FIRST_LEGAL)
        archive.writestr("data.bin", b"\0" * (MAX_UNPACKED_BYTES + 1))
    raw = bytearray(buffer.getvalue())
    # Patch the central directory's uncompressed size of data.bin to 10 bytes.
    header = raw.rfind(b"data.bin") - 46
    assert raw[header : header + 4] == b"PK\x01\x02"
    raw[header + 24 : header + 28] = (10).to_bytes(4, "little")
    with pytest.raises(UploadError):
        inspect_upload(filename="liar.zip", data=bytes(raw), game="duelo")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("../evil.py", "'..'"),
        ("/etc/evil.py", "absolute"),
        ("a/../../evil.py", "'..'"),
        ("C:/evil.py", "absolute"),
        ("dir\\evil.py", "backslash"),
    ],
)
def test_path_traversal_refused(name, message):
    data = zip_bytes({"main.py": FIRST_LEGAL, name: "x = 1\n"})
    with pytest.raises(UploadError, match=message):
        inspect_upload(filename="bot.zip", data=data, game="duelo")


def test_symlink_refused():
    data = zip_bytes({"main.py": FIRST_LEGAL}, symlinks={"link": "/etc/passwd"})
    with pytest.raises(UploadError, match="symbolic links"):
        inspect_upload(filename="bot.zip", data=data, game="duelo")


def test_too_many_files_refused():
    data = zip_bytes(
        {"main.py": FIRST_LEGAL} | {f"f{i}.py": "" for i in range(MAX_FILES)}
    )
    with pytest.raises(UploadError, match="at most 200"):
        inspect_upload(filename="bot.zip", data=data, game="duelo")


def test_missing_main_py_refused():
    data = zip_bytes({"bot.py": FIRST_LEGAL, "other/x.py": ""})
    with pytest.raises(UploadError, match=r"no main\.py"):
        inspect_upload(filename="bot.zip", data=data, game="duelo")


def test_syntax_error_names_the_line():
    with pytest.raises(UploadError, match="syntax error at line 2"):
        inspect_upload(filename="bot.py", data=b"x = 1\ndef (:\n", game="duelo")


def test_wrong_game_declaration_refused():
    source = FIRST_LEGAL.replace(b'"duelo"', b'"kungfu2013"')
    assert declared_game(source) == "kungfu2013"
    with pytest.raises(UploadError, match='declares GAME = "kungfu2013"'):
        inspect_upload(filename="bot.py", data=source, game="duelo")


def test_not_a_zip_or_python_refused():
    with pytest.raises(
        UploadError, match=r"single source file \(\.py, \.js.*or a \.zip"
    ):
        inspect_upload(filename="bot.exe", data=b"MZ....", game="duelo")
    with pytest.raises(UploadError, match="cannot be read"):
        inspect_upload(filename="bot.zip", data=b"PK\x03\x04garbage", game="duelo")


def test_binary_main_refused():
    with pytest.raises(UploadError, match="not UTF-8"):
        inspect_upload(filename="bot.py", data=b"\xff\xfe\x00", game="duelo")


@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=6))
def test_any_member_names_are_refused_or_stay_inside(names):
    """Whatever the names, an accepted upload only holds relative, clean paths."""
    files = {"main.py": FIRST_LEGAL}
    for name in names:
        files.setdefault(name, "x = 1\n")
    try:
        data = zip_bytes(files)
    except (ValueError, UnicodeEncodeError, IndexError):
        return  # a name the zip library itself cannot write
    try:
        bot = inspect_upload(filename="bot.zip", data=data, game="duelo")
    except UploadError:
        return
    for path in bot.files:
        parts = path.split("/")
        assert not path.startswith("/")
        assert ".." not in parts
        assert "" not in parts
        assert "\\" not in path
