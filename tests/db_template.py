"""One migrated SQLite database per schema, copied into every test database.

Every test process creates its test database by running every migration (about
6 s of CPU on this machine), and ``make test`` starts four such processes (two
pytest-xdist workers, two browser sessions) at once. Here the first of them
migrates as before and keeps a copy of the result under
``var/test-db-template/<key>.sqlite3``; the others, and every later run with
the same migrations, copy it in with SQLite's backup API (milliseconds) and
then send ``post_migrate`` as ``migrate`` would.

The key is a hash of every installed app's migration files (names and
contents; an app without migrations: its models module), Django's and SQLite's
versions and the settings module, so a new or edited migration makes a new
template (older ones are deleted). A lock file makes the others wait while the
first migrates. PostgreSQL, ``--reuse-db`` (keepdb) and ``--nomigrations``
create their databases as before. ``KFA_DB_TEMPLATE=0`` turns this off.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ENABLED = os.environ.get("KFA_DB_TEMPLATE", "1") != "0"
_SUFFIX = ".sqlite3"


def schema_key(apps: Any, settings_module: str) -> str:
    """What the migrated database depends on, as a short hash."""
    import django

    digest = hashlib.sha256()
    digest.update(f"{django.__version__}|{sqlite3.sqlite_version}|".encode())
    digest.update(settings_module.encode())
    for config in sorted(apps.get_app_configs(), key=lambda c: c.label):
        digest.update(f"\0app {config.label}\0".encode())
        for path in _schema_files(config):
            digest.update(f"{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _schema_files(config: Any) -> list[Path]:
    """An app's migration files, or its models module when it has none."""
    from django.db.migrations.loader import MigrationLoader

    module_name, _explicit = MigrationLoader.migrations_module(config.label)
    spec = None
    if module_name:
        with contextlib.suppress(ImportError, ValueError):
            spec = importlib.util.find_spec(module_name)
    if spec is not None and spec.submodule_search_locations:
        folders = [Path(p) for p in spec.submodule_search_locations]
        return sorted(p for folder in folders for p in folder.glob("*.py"))
    # An app without a models module has no schema of its own.
    module = config.models_module
    return [Path(module.__file__)] if module is not None and module.__file__ else []


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def save(connection: sqlite3.Connection, target: Path) -> None:
    """Copy the database behind ``connection`` to ``target`` (atomically)."""
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    copy = sqlite3.connect(partial)
    try:
        connection.backup(copy)
    finally:
        copy.close()
    os.replace(partial, target)
    key = target.name.removesuffix(_SUFFIX)
    for other in target.parent.iterdir():
        # An older schema's template and lock (not this key's lock, held now).
        if other.name.split(".")[0] != key and other.suffix in (_SUFFIX, ".lock"):
            with contextlib.suppress(OSError):
                other.unlink()


def restore(template: Path, connection: sqlite3.Connection) -> None:
    """Replace the database behind ``connection`` with ``template``'s content."""
    source = sqlite3.connect(f"file:{template}?mode=ro", uri=True)
    try:
        source.backup(connection)
    finally:
        source.close()


def migrate_or_copy(
    connection: Any, directory: Path, key: str, migrate: Callable[[], None]
) -> bool:
    """Fill ``connection``'s (empty) test database: from the template for
    ``key`` if one exists (True), else by ``migrate()``, keeping the result as
    the template (False)."""
    template = directory / f"{key}{_SUFFIX}"
    with _locked(directory / f"{key}.lock"):
        if template.exists():
            connection.ensure_connection()
            restore(template, connection.connection)
            return True
        migrate()
        connection.ensure_connection()
        save(connection.connection, template)
        return False


def _wrap_create_test_db(original: Callable[..., Any]) -> Callable[..., Any]:
    def create_test_db(
        self: Any,
        verbosity: int = 1,
        autoclobber: bool = False,
        serialize: bool = True,
        keepdb: bool = False,
    ) -> Any:
        if keepdb or self.connection.settings_dict["TEST"].get("MIGRATE") is False:
            return original(self, verbosity, autoclobber, serialize, keepdb)
        from django import apps as django_apps
        from django.conf import settings
        from django.core import management
        from django.core.management.sql import emit_post_migrate_signal

        directory = Path(settings.VAR_DIR) / "test-db-template"
        key = schema_key(django_apps.apps, settings.SETTINGS_MODULE)
        real_call_command = management.call_command
        alias = self.connection.alias

        def call_command(name: Any, *args: Any, **options: Any) -> Any:
            if name != "migrate" or args or options.get("database") != alias:
                return real_call_command(name, *args, **options)

            def migrate() -> None:
                real_call_command(name, **options)

            copied = migrate_or_copy(self.connection, directory, key, migrate)
            if copied:  # migrate's last step, for its receivers
                emit_post_migrate_signal(0, False, alias)
            return None

        management.call_command = call_command  # type: ignore[assignment]
        try:
            return original(self, verbosity, autoclobber, serialize, keepdb)
        finally:
            management.call_command = real_call_command

    create_test_db._kfa_template = True  # type: ignore[attr-defined]
    return create_test_db


def install() -> None:
    """Make SQLite test databases start from the template (once per process)."""
    if not ENABLED:
        return
    from django.db.backends.sqlite3.creation import DatabaseCreation

    if getattr(DatabaseCreation.create_test_db, "_kfa_template", False):
        return
    # The point is to replace Django's method: mypy forbids it by default.
    DatabaseCreation.create_test_db = _wrap_create_test_db(  # type: ignore[method-assign]
        DatabaseCreation.create_test_db
    )
