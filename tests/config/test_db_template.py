"""The migrated SQLite template the test databases are copied from
(tests/db_template.py, docs/testing.md)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.apps import apps

from tests import db_template


class _Connection:
    """What migrate_or_copy uses of a Django connection: a raw connection."""

    def __init__(self) -> None:
        self.connection = sqlite3.connect(":memory:")

    def ensure_connection(self) -> None:
        """Connected from the start (an in-memory database)."""

    def tables(self) -> list[tuple]:
        return self.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ).fetchall()


def _migrate(connection: _Connection, calls: list[str]) -> Callable[[], None]:
    def migrate() -> None:
        calls.append("migrate")
        connection.connection.execute("CREATE TABLE rows (id INTEGER)")
        connection.connection.execute("INSERT INTO rows VALUES (7)")
        connection.connection.commit()

    return migrate


def test_the_first_database_migrates_and_the_next_is_copied(tmp_path) -> None:
    calls: list[str] = []
    first = _Connection()
    assert not db_template.migrate_or_copy(
        first, tmp_path, "k1", _migrate(first, calls)
    )
    assert calls == ["migrate"]
    second = _Connection()
    assert db_template.migrate_or_copy(second, tmp_path, "k1", _migrate(second, calls))
    assert calls == ["migrate"]  # not again
    assert second.tables() == [("rows",)]
    assert second.connection.execute("SELECT id FROM rows").fetchall() == [(7,)]


def test_a_new_schema_migrates_and_replaces_the_old_template(tmp_path) -> None:
    calls: list[str] = []
    for key in ("old", "new"):
        connection = _Connection()
        db_template.migrate_or_copy(
            connection, tmp_path, key, _migrate(connection, calls)
        )
    assert calls == ["migrate", "migrate"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.lock", "new.sqlite3"]


def test_a_failed_migration_leaves_no_template(tmp_path) -> None:
    def broken() -> None:
        raise RuntimeError("migration 0042 failed")

    with pytest.raises(RuntimeError, match="0042"):
        db_template.migrate_or_copy(_Connection(), tmp_path, "k", broken)
    assert not list(tmp_path.glob("*.sqlite3"))


def _key_with(monkeypatch, files: dict[str, list[Path]]) -> str:
    configs = [SimpleNamespace(label=label) for label in files]
    fake_apps = SimpleNamespace(get_app_configs=lambda: configs)
    monkeypatch.setattr(db_template, "_schema_files", lambda c: files[c.label])
    return db_template.schema_key(fake_apps, "config.settings.test")


def test_the_key_follows_every_migration_file(tmp_path, monkeypatch) -> None:
    first = tmp_path / "0001_initial.py"
    first.write_text("operations = []\n")
    before = _key_with(monkeypatch, {"bots": [first]})
    assert _key_with(monkeypatch, {"bots": [first]}) == before
    first.write_text("operations = ['changed']\n")
    edited = _key_with(monkeypatch, {"bots": [first]})
    assert edited != before
    second = tmp_path / "0002_more.py"
    second.write_text("")
    assert _key_with(monkeypatch, {"bots": [first, second]}) != edited
    # The same files under another app are another schema.
    assert _key_with(monkeypatch, {"league": [first]}) != edited


def test_the_projects_apps_contribute_their_migration_files() -> None:
    files = db_template._schema_files(apps.get_app_config("gameplay"))
    assert any(path.name == "0001_initial.py" for path in files)
    assert all(path.parent.name == "migrations" for path in files)


def test_the_sessions_sqlite_test_database_came_through_the_template() -> None:
    from django.db.backends.sqlite3.creation import DatabaseCreation

    assert (
        getattr(DatabaseCreation.create_test_db, "_kfa_template", False)
        == db_template.ENABLED
    )
