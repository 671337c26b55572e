"""Checking an uploaded bot before anything is stored.

An upload is untrusted input from the network: a zip can claim small sizes and
expand to gigabytes, name files ``../../etc/x`` or ``/abs``, or contain symlinks
that point out of the bot directory. Everything is checked in memory and the
decompressed bytes are counted as they come out (never trusting the sizes the
zip declares), so a refused upload leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import io
import stat
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.utils.translation import gettext as _

from bots.runtimes import RUNTIMES, Runtime, runtime_for_files, runtime_for_suffix
from bots.runtimes.base import BUILD_DIR, UploadError
from bots.runtimes.python import declared_game

__all__ = [
    "MAX_UPLOAD_BYTES",
    "UnpackedBot",
    "UploadError",
    "declared_game",
    "inspect_upload",
]

#: Largest upload accepted, as sent (a .py file or the zip itself).
MAX_UPLOAD_BYTES = 1024 * 1024
#: Largest total size of the unpacked files.
MAX_UNPACKED_BYTES = 5 * 1024 * 1024
#: Most files (and directories) a zip may hold.
MAX_FILES = 200
#: Longest relative path inside a bot.
MAX_PATH_LENGTH = 200
#: The entry points, one per runtime (main.py, main.js, main.c, ...).
ENTRYPOINTS = tuple(runtime.entrypoint for runtime in RUNTIMES.values())


@dataclass(frozen=True)
class UnpackedBot:
    """A checked upload: relative POSIX path -> file contents."""

    files: dict[str, bytes]
    sha256: str
    filename: str
    upload_bytes: int
    #: The registry name of the runtime its entry point selects.
    runtime: str = "python"

    @property
    def unpacked_bytes(self) -> int:
        return sum(len(data) for data in self.files.values())


def _human(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n // 1024} KiB"


def _check_source(files: dict[str, bytes], *, game: str) -> Runtime:
    """The upload's runtime, after its own checks of the source (never run)."""
    runtime = runtime_for_files(files)
    if runtime is None:
        present = sorted(
            r.entrypoint for r in RUNTIMES.values() if r.entrypoint in files
        )
        raise UploadError(
            _(
                "The upload holds %(files)s: one entry point only, so the platform "
                "knows which runtime to use."
            )
            % {"files": " and ".join(present)}
        )
    if any(path == BUILD_DIR or path.startswith(f"{BUILD_DIR}/") for path in files):
        raise UploadError(
            _("Refused %(build_dir)s/: the platform keeps a compiled bot there.")
            % {"build_dir": BUILD_DIR}
        )
    runtime.check_upload(files, game=game)
    return runtime


def _safe_path(name: str) -> str:
    """Normalise a member name or refuse it (absolute, .., drive, backslash)."""
    if "\\" in name or "\x00" in name:
        raise UploadError(
            _("Refused path %(name)s: backslashes are not allowed.")
            % {"name": repr(name)}
        )
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UploadError(
            _("Refused path %(name)s: absolute paths are not allowed.")
            % {"name": repr(name)}
        )
    parts = [part for part in PurePosixPath(name).parts if part not in ("", ".")]
    if ".." in parts:
        raise UploadError(
            _("Refused path %(name)s: '..' is not allowed.") % {"name": repr(name)}
        )
    if not parts:
        raise UploadError(
            _("Refused path %(name)s: empty name.") % {"name": repr(name)}
        )
    path = "/".join(parts)
    if len(path) > MAX_PATH_LENGTH:
        raise UploadError(
            _("Refused path %(name)s...: longer than 200 characters.")
            % {"name": repr(name[:60])}
        )
    return path


def _unzip(data: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise UploadError(
            _("The zip file cannot be read: %(exc)s.") % {"exc": exc}
        ) from exc
    if len(members) > MAX_FILES:
        raise UploadError(
            _("The zip holds %(count)s entries; at most %(max_files)s are allowed.")
            % {"count": len(members), "max_files": MAX_FILES}
        )
    files: dict[str, bytes] = {}
    total = 0
    for info in members:
        path = _safe_path(info.filename)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise UploadError(
                _("Refused %(path)s: symbolic links are not allowed.") % {"path": path}
            )
        if info.is_dir():
            continue
        if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
            raise UploadError(
                _("Refused %(path)s: only regular files are allowed.") % {"path": path}
            )
        if info.flag_bits & 0x1:
            raise UploadError(
                _("Refused %(path)s: encrypted entries are not allowed.")
                % {"path": path}
            )
        if path in files:
            raise UploadError(
                _("Refused %(path)s: it appears twice in the zip.") % {"path": path}
            )
        budget = MAX_UNPACKED_BYTES - total
        if info.file_size > budget:
            raise UploadError(
                _("The unpacked bot would exceed %(size)s.")
                % {"size": _human(MAX_UNPACKED_BYTES)}
            )
        chunks = []
        try:
            with archive.open(info) as member:
                # Count what really comes out: declared sizes can lie.
                while chunk := member.read(65536):
                    budget -= len(chunk)
                    if budget < 0:
                        raise UploadError(
                            _("The unpacked bot would exceed %(size)s.")
                            % {"size": _human(MAX_UNPACKED_BYTES)}
                        )
                    chunks.append(chunk)
        except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError) as exc:
            raise UploadError(
                _("Cannot unpack %(path)s: %(exc)s.") % {"path": path, "exc": exc}
            ) from exc
        content = b"".join(chunks)
        total += len(content)
        files[path] = content
    _refuse_file_dir_clashes(files)
    return _strip_wrapper(files)


def _refuse_file_dir_clashes(files: dict[str, bytes]) -> None:
    """Refuse ``x`` beside ``x/y``: one name cannot be a file and a folder.

    Unpacking such a zip fails half-way (FileExistsError) on any file system.
    """
    folders = {
        "/".join(path.split("/")[:depth])
        for path in files
        for depth in range(1, path.count("/") + 1)
    }
    clashes = sorted(folders.intersection(files))
    if clashes:
        raise UploadError(
            _("Refused %(path)s: the zip holds it both as a file and as a folder.")
            % {"path": clashes[0]}
        )


def _strip_wrapper(files: dict[str, bytes]) -> dict[str, bytes]:
    """Accept ``mybot/main.py``: zipping a folder wraps everything in its name."""
    if any(entry in files for entry in ENTRYPOINTS) or not files:
        return files
    tops = {path.split("/", 1)[0] for path in files}
    if len(tops) == 1 and all("/" in path for path in files):
        prefix = tops.pop() + "/"
        return {path.removeprefix(prefix): data for path, data in files.items()}
    return files


def inspect_upload(*, filename: str, data: bytes, game: str) -> UnpackedBot:
    """Check an upload for ``game``; return its files or raise :class:`UploadError`."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(
            _("The upload is %(size)s; at most %(limit)s is accepted.")
            % {"size": _human(len(data)), "limit": _human(MAX_UPLOAD_BYTES)}
        )
    if not data:
        raise UploadError(_("The uploaded file is empty."))
    lower = filename.lower()
    single = runtime_for_suffix(filename)
    if lower.endswith(".zip") or data[:4] == b"PK\x03\x04":
        files = _unzip(data)
        if not any(entry in files for entry in ENTRYPOINTS):
            raise UploadError(
                _(
                    "The zip has no %(files)s at its top level (or inside one "
                    "top-level folder); the platform runs that file and picks the "
                    "runtime by its name."
                )
                % {"files": " / ".join(ENTRYPOINTS)}
            )
    elif single is not None:
        files = {single.entrypoint: data}
    else:
        suffixes = ", ".join(s for r in RUNTIMES.values() for s in r.suffixes)
        raise UploadError(
            _("Upload a single source file (%(suffixes)s) or a .zip holding %(files)s.")
            % {"suffixes": suffixes, "files": " or ".join(ENTRYPOINTS)}
        )
    runtime = _check_source(files, game=game)
    return UnpackedBot(
        files=files,
        sha256=hashlib.sha256(data).hexdigest(),
        filename=PurePosixPath(filename.replace("\\", "/")).name[:120]
        or runtime.entrypoint,
        upload_bytes=len(data),
        runtime=runtime.name,
    )
