"""Browser steps shared by the Kung Fu (2009) tests."""

from __future__ import annotations

import contextlib

from playwright.sync_api import Error as PlaywrightError

from gameplay.models import Match


def shout_until_scored(arena, page, *, match_pk: int, seat: int = 0) -> None:
    """Press KUNG FU until ``seat`` has scored a combination.

    A bot may take the face-up card first (the claim is then void and the
    hand comes back): shout again at the new one while the button is offered.
    The board redraws at every step of the bots' trading; a click that keeps
    meeting a button being replaced gives up after 5 s and is tried again at
    the next poll (a slow machine redraws often relative to its clicks).
    """
    kungfu = page.locator('[data-role="kungfu"] button:not([disabled])')

    def scored() -> bool:
        if Match.objects.get(pk=match_pk).state["won"][seat]:
            return True
        if kungfu.count():
            with contextlib.suppress(PlaywrightError):
                kungfu.first.click(timeout=5000)
        return False

    arena.wait_until(scored, timeout=90, interval=1, message="a correct KUNG FU")
