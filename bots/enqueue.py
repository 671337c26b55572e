"""The one door from the bots app's services to its Celery tasks.

Tasks import services; services queue tasks only through these functions,
which look the task up by its registered name (:mod:`bots.tasks` registers
them when the app is ready) instead of importing the task module, so no
import runs back from services to tasks. Tests replace these functions to
keep work from being queued.
"""

from __future__ import annotations

from celery import current_app

VALIDATE_VERSION = "bots.validate_version"
DEBUT_GAMES = "bots.debut_games"
PLAY_MATCH = "bots.play_match"
RATE_VERSIONS = "bots.rate_versions"

#: Every task queued from here (a test checks that each is registered).
TASK_NAMES = (VALIDATE_VERSION, DEBUT_GAMES, PLAY_MATCH, RATE_VERSIONS)


def _delay(name: str, *args: object) -> None:
    current_app.tasks[name].delay(*args)


def validation(version_id: int) -> None:
    """Queue the validation games of a newly stored version."""
    _delay(VALIDATE_VERSION, version_id)


def debut_games(version_id: int) -> None:
    """Queue the first ladder games of a version that has just been validated."""
    _delay(DEBUT_GAMES, version_id)


def play_matches(match_ids: list[int]) -> None:
    """Queue every all-bot match in ``match_ids`` for a bots worker to play."""
    for match_id in match_ids:
        _delay(PLAY_MATCH, match_id)


def rate_versions(match_id: int) -> None:
    """Queue the per-version ratings of a finished rated match."""
    _delay(RATE_VERSIONS, match_id)
