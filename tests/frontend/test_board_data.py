"""The generated card files (``manage.py build_board_data``) match the catalogues."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from gameplay.management.commands.build_board_data import board_data_files
from gameplay.rules import available_games, game_meta


def test_committed_board_data_is_current() -> None:
    call_command("build_board_data", "--check")


def test_every_catalogue_has_its_board_data_and_rules_rows() -> None:
    files = {p.name for p in board_data_files()}
    for game_id in available_games():
        if game_meta(game_id).catalogue:
            assert f"{game_id}-cards.js" in files
            assert f"_{game_id}_cards.html" in files


def test_a_stale_file_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    path, content = next(iter(board_data_files().items()))
    monkeypatch.setattr(
        "gameplay.management.commands.build_board_data.board_data_files",
        lambda: {path: content + "// changed\n"},
    )
    with pytest.raises(CommandError, match="stale"):
        call_command("build_board_data", "--check")
