"""Where bot code lives on disk, and how it is laid out for the sandbox.

A stored version is a directory ``MEDIA_ROOT/bots/<version id>/`` holding the
upload's files plus the SDK module (unless the upload ships its own), made
read-only once written: versions are immutable, and the sandbox mounts the code
read-only anyway. The local ``botmatch`` command lays a bot out the same way in
a temporary directory, so both run identical trees.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

from bots.runtimes import BUILD_DIR, RUNTIMES, runtime_for_files

if TYPE_CHECKING:
    from bots.models import BotVersion

_READ_ONLY_FILE = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
_READ_ONLY_DIR = _READ_ONLY_FILE | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


def version_dir(version: BotVersion | int) -> Path:
    """Where a version's files live: ``MEDIA_ROOT/bots/<version id>/``."""
    pk = version if isinstance(version, int) else version.pk
    return Path(settings.MEDIA_ROOT) / "bots" / str(pk)


def bot_data_dir(bot_id: int) -> Path:
    """Where a bot's data directory is kept between its matches (private to
    the worker; see bots.sandbox.datadir): ``MEDIA_ROOT/bot-data/<bot id>/``."""
    return Path(settings.MEDIA_ROOT) / "bot-data" / str(bot_id)


def write_bot_tree(files: dict[str, bytes], dest: Path, *, read_only: bool) -> None:
    """Write ``files`` (relative POSIX paths, already checked) under ``dest``."""
    dest.mkdir(parents=True, exist_ok=False)
    for relative, data in files.items():
        target = dest.joinpath(*relative.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as fh:
            fh.write(data)
    runtime = runtime_for_files(files) or RUNTIMES["python"]
    for sdk in runtime.sdk_files:
        if sdk.name not in files:
            shutil.copyfile(sdk, dest / sdk.name)
    if read_only:
        make_read_only(dest)
    else:
        # The sandbox runs the bot under another uid: it must be able to read.
        for root, dirs, names in os.walk(dest):
            os.chmod(root, 0o755)
            for name in names:
                os.chmod(os.path.join(root, name), 0o644)
            del dirs[:0]


def make_read_only(root: Path) -> None:
    for current, _dirs, names in os.walk(root, topdown=False):
        for name in names:
            os.chmod(os.path.join(current, name), _READ_ONLY_FILE)
        os.chmod(current, _READ_ONLY_DIR)


def remove_tree(root: Path) -> None:
    """Delete a (read-only) bot tree, e.g. when storing its row failed."""
    if not root.exists():
        return
    for current, dirs, _names in os.walk(root):
        os.chmod(current, 0o755)
        for name in dirs:
            os.chmod(os.path.join(current, name), 0o755)
    shutil.rmtree(root, ignore_errors=True)


def read_source(root: Path, relative: str, *, limit: int = 256 * 1024) -> str:
    """A stored file's text for the bot page (bounded; undecodable bytes replaced)."""
    target = (root / relative).resolve()
    if not target.is_relative_to(root.resolve()) or not target.is_file():
        raise FileNotFoundError(relative)
    with open(target, "rb") as fh:
        return fh.read(limit).decode("utf-8", errors="replace")


def list_files(root: Path) -> list[str]:
    """Relative paths of a stored version's files, sorted."""
    if not root.exists():
        return []
    return sorted(
        str(path.relative_to(root)).replace(os.sep, "/")
        for path in root.rglob("*")
        if path.is_file() and path.relative_to(root).parts[0] != BUILD_DIR
    )
