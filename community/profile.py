"""The community section of a profile: mute, block and report for visitors;
the chat switch and one's standing for oneself."""

from __future__ import annotations

from accounts.models import User
from accounts.profile import ProfileSection


def community_section(user: User) -> ProfileSection | None:
    return ProfileSection(
        title="Community", template="community/_profile.html", context={"subject": user}
    )
