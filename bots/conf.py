"""The bots app's settings, read in one place with their defaults.

Only ``BOT_SANDBOX_ALLOW_UNSANDBOXED``, ``BOT_SANDBOX_UID_BASE``/``_COUNT``,
``BOT_SANDBOX_CGROUP`` and
``BOT_MAX_PER_OWNER`` are declared in
``config/settings``; the rest have defaults that suit the platform and can be
overridden in a settings module when a deployment needs to.
"""

from __future__ import annotations

from django.conf import settings

from bots.protocol.transport import TimeControl
from bots.sandbox import SandboxConfig

#: Bots may import modules shipped beside main.py, so the script's directory
#: (the read-only /bot) stays on sys.path: -E ignores PYTHON* variables like -I
#: does, but -I would also drop the script's directory. -S skips site-packages:
#: bots get the standard library only (the same on every worker), and start
#: faster. -u: unbuffered stdout, so a bot that forgets to flush still answers.
BOT_INTERPRETER_ARGS = ("-S", "-E", "-u")


def sandbox_config() -> SandboxConfig:
    """The sandbox every uploaded bot runs in (frozen: also the self-test's key)."""
    return getattr(settings, "BOT_SANDBOX_CONFIG", None) or SandboxConfig(
        interpreter_args=BOT_INTERPRETER_ARGS,
        uid_base=int(getattr(settings, "BOT_SANDBOX_UID_BASE", 60000)),
        slot_count=int(getattr(settings, "BOT_SANDBOX_UID_COUNT", 64)),
        cgroup_parent=str(getattr(settings, "BOT_SANDBOX_CGROUP", "")),
    )


def time_control() -> TimeControl:
    """Protocol v1 limits: start-up, per decision, and the overage bank."""
    return getattr(settings, "BOT_TIME_CONTROL", None) or TimeControl(
        startup=5.0, per_move=1.0, bank=10.0
    )


def allow_unsandboxed() -> bool:
    """The development-only override (production settings refuse to set it)."""
    return bool(getattr(settings, "BOT_SANDBOX_ALLOW_UNSANDBOXED", False))


def max_bots_per_owner() -> int:
    return int(getattr(settings, "BOT_MAX_PER_OWNER", 5))


def validation_games() -> int:
    """How many games a new version plays against the random bot."""
    return int(getattr(settings, "BOT_VALIDATION_GAMES", 4))


def ladder_period_minutes() -> int:
    """Beat period of ladder rounds; also the unit of ``LadderRound.slot``."""
    return int(getattr(settings, "BOT_LADDER_PERIOD_MINUTES", 30))


def ladder_duplicate() -> bool:
    """Whether ladder pairings replay each deal with seats rotated."""
    return bool(getattr(settings, "BOT_LADDER_DUPLICATE", True))


def ladder_anchors() -> tuple[str, ...]:
    """Built-in bots that stand in every ladder pool (never paired together).

    ISMCTS is left out by default: at about 0.7 games a second it would cost a
    bots worker more than every uploaded bot's games together.
    """
    return tuple(getattr(settings, "BOT_LADDER_ANCHORS", ("random", "heuristic")))
