"""Demo data for `make run`: an admin, a few players, one league per game.

Idempotent: running it again changes nothing and prints the same admin password,
which is kept under var/ (ignored by git) so a re-run can show it again.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from gameplay.catalog import game_catalog
from league.models import League, ParticipantKind, Season, SeasonStatus

DEMO_PLAYERS = [
    ("mei", "Mei Lin"),
    ("jukai", "Jukai"),
    ("quan", "Quan Jing"),
    ("ning", "Ning Long"),
]
DEMO_PASSWORD = "kungfu-demo-2026"


class Command(BaseCommand):
    help = "Create the demo admin, players and leagues (safe to run repeatedly)."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        password_file = settings.VAR_DIR / "admin-password.txt"
        admin = User.objects.filter(username="admin").first()
        if admin is None:
            password = secrets.token_urlsafe(12)
            User.objects.create_superuser(
                username="admin",
                email="admin@localhost",
                password=password,
                display_name="Arena admin",
            )
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
        elif password_file.exists():
            password = password_file.read_text().strip()
        else:
            password = "(unchanged; set it with 'manage.py changepassword admin')"

        for username, display_name in DEMO_PLAYERS:
            if not User.objects.filter(username=username).exists():
                User.objects.create_user(
                    username=username,
                    email=f"{username}@example.com",
                    password=DEMO_PASSWORD,
                    display_name=display_name,
                )

        now = timezone.now()
        for game in game_catalog():
            league, _ = League.objects.get_or_create(
                slug=f"{game.id}-open",
                defaults={
                    "name": f"{game.name} Open League",
                    "game": game.id,
                    "description": f"The open ladder for {game.name}: people and "
                    "bots welcome, rated every game.",
                    "participants": ParticipantKind.MIXED,
                },
            )
            Season.objects.get_or_create(
                league=league,
                number=1,
                defaults={
                    "name": f"{game.name} Open — season 1",
                    "registration_opens_at": now - timedelta(days=1),
                    "registration_closes_at": now + timedelta(days=14),
                    "starts_at": now,
                    "ends_at": now + timedelta(days=60),
                    "status": SeasonStatus.OPEN,
                },
            )

        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(f"  admin password: {password}")
        players = ", ".join(name for name, _ in DEMO_PLAYERS)
        self.stdout.write(f"  demo players ({players}) password: {DEMO_PASSWORD}")
