"""Rewrite the test modules' asserts once, before the test processes start.

pytest rewrites every test module's ``assert`` statements as it imports it
(about 8 s of CPU for this suite's 6,000 asserts) and caches the result in
``__pycache__/*-pytest-<version>.pyc`` when bytecode may be written. Each
pytest-xdist worker imports every module, so in a fresh clone both workers
rewrite everything at once, and with ``PYTHONDONTWRITEBYTECODE`` set (the
Dockerfile's, many shells') every run rewrites again. ``make test`` runs this
first: it writes the cached files pytest itself would write (its own rewrite
and its own writer, spread over the cores), which every process then reads.
pytest checks each cached file against its source, so a stale one is
rewritten as before. If pytest's private API has changed, this says so and
writes nothing: the run is as before, only slower.

    python -m tests.assert_cache [folder or file ...]   # default: tests
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]


def _modules(paths: list[Path]) -> list[Path]:
    """The files pytest rewrites here: test modules and conftest files."""
    found: list[Path] = []
    for path in paths:
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        found += [
            f
            for f in files
            if f.name == "conftest.py"
            or (f.name.startswith("test_") and f.suffix == ".py")
        ]
    return found


def _cache(files: list[Path]) -> int:
    """Rewrite and write each file's cached module unless pytest's is current."""
    from _pytest.assertion import rewrite

    state = SimpleNamespace(trace=lambda *args: None)
    written = 0
    for path in files:
        pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, pyc, state.trace) is not None:
            continue
        if not rewrite.try_makedirs(pyc.parent):
            continue
        source_hash, code = rewrite._rewrite_test(path, None)  # type: ignore[arg-type]
        written += bool(rewrite._write_pyc(state, code, source_hash, pyc))  # type: ignore[arg-type]
    return written


def main(arguments: list[str]) -> int:
    paths = [Path(a) for a in arguments] or [ROOT / "tests"]
    files = _modules(paths)
    workers = max(1, min(os.cpu_count() or 1, 4))
    chunks = [files[i::workers] for i in range(workers)]
    try:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            written = sum(pool.map(_cache, chunks))
    except (AttributeError, ImportError, TypeError) as exc:  # pytest changed
        print(f"tests.assert_cache: skipped ({exc!r})", file=sys.stderr)
        return 0
    print(f"tests.assert_cache: {written} of {len(files)} modules rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
