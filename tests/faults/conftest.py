"""Fault tests share the match helpers' seated players."""

from tests.gameplay.conftest import players  # noqa: F401
