"""Players' accounts.

A custom user model from the first migration, because swapping it later is
painful; it adds only the public display name shown on boards and rankings.
"""

from zoneinfo import available_timezones

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value and value not in available_timezones():
        raise ValidationError(
            _("Choose a time zone from the list (e.g. Europe/Paris).")
        )


class ChallengesFrom(models.TextChoices):
    EVERYONE = "everyone", _("Everyone")
    FRIENDS = "friends", _("Only players I follow")
    NOBODY = "nobody", _("No one")


class YourMoveEmail(models.TextChoices):
    EACH = "each", "One e-mail per game (at most one per game every few hours)"
    DIGEST = "digest", "One daily digest of every game waiting for me"
    OFF = "off", "No e-mail"


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text=_(
            "Shown on boards, brackets and rankings; defaults to the username."
        ),
    )
    email_tournament_rounds = models.BooleanField(
        _("e-mail me when a tournament round is paired"),
        default=True,
        help_text=_("Whom you play and by when; the site shows it either way."),
    )
    # "Your move" away from the table (docs/notifications.md, issue 30 §3):
    # one setting per channel. E-mail and push are for correspondence games.
    your_move_email = models.CharField(
        "e-mail me when it is my move in a correspondence game",
        max_length=10,
        choices=YourMoveEmail.choices,
        default=YourMoveEmail.EACH,
    )
    your_move_push = models.BooleanField(
        "push notices to my browsers when it is my move in a correspondence game",
        default=True,
        help_text="Only to browsers you turned push on in (below).",
    )
    your_move_site = models.BooleanField(
        'show "your move" in my notifications on the site',
        default=True,
        help_text="The badge beside the brand counts your moves either way.",
    )

    bio = models.CharField(
        max_length=300,
        blank=True,
        help_text=_("A few words about you (300 at most)."),
    )
    country = models.CharField(max_length=60, blank=True)
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text=_("Times on the site are shown in this zone; empty means UTC."),
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The site's language for you; empty follows your browser."),
    )
    accept_challenges = models.CharField(
        _("accept challenges from"),
        max_length=10,
        choices=ChallengesFrom.choices,
        default=ChallengesFrom.EVERYONE,
    )

    # What the public name looks like (accounts.names): two accounts may not show
    # names that read the same (case, spacing, look-alike letters).
    name_skeleton = models.CharField(
        max_length=150, blank=True, db_index=True, editable=False
    )

    class Meta:
        ordering = ["username"]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def save(self, *args, **kwargs) -> None:
        from accounts.names import name_skeleton

        self.name_skeleton = name_skeleton(self.public_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"display_name", "username"} & set(
            update_fields
        ):
            kwargs["update_fields"] = {*update_fields, "name_skeleton"}
        super().save(*args, **kwargs)
