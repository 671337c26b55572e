"""Lobby forms: a table's options are built from the game's public option list."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gameplay.catalog import GameInfo, table_options
from gameplay.timecontrol import (
    CORRESPONDENCE_DAYS,
    INCREMENT_RANGE,
    PER_MOVE_RANGE,
    TOTAL_RANGE,
    TimeControl,
    TimeControlError,
)


class TimeControlForm(forms.Form):
    """The time-control fields every lobby form shares (docs/time-controls.md):
    live seconds per move, or minutes per player with a Fischer increment, or
    correspondence days per move. ``time_control()`` is the value to store;
    a combination ``TimeControl.parse`` refuses is a form error."""

    per_move = forms.IntegerField(
        label=_("Seconds per move"),
        required=False,
        min_value=PER_MOVE_RANGE[0],
        max_value=PER_MOVE_RANGE[1],
        help_text=_("Live. Leave empty for no per-move limit."),
    )
    total = forms.IntegerField(
        label=_("Total minutes per player"),
        required=False,
        min_value=1,
        max_value=TOTAL_RANGE[1] // 60,
        help_text=_("Live: each player's thinking time for the whole game."),
    )
    increment = forms.IntegerField(
        label=_("Increment (seconds per move)"),
        required=False,
        min_value=0,
        max_value=INCREMENT_RANGE[1],
        help_text=_("Added to the total after each of your moves."),
    )
    days = forms.TypedChoiceField(
        label=_("Correspondence: days per move"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "— (live)")]
        + [(d, f"{d} day{'s' if d > 1 else ''}") for d in CORRESPONDENCE_DAYS],
        help_text=_("A move may wait this long; no other limit with it."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "days" in self.fields:
            try:
                self._control = TimeControl.parse(self._time_control_data(cleaned))
            except TimeControlError as exc:
                raise forms.ValidationError(str(exc)) from exc
        return cleaned

    @staticmethod
    def _time_control_data(cleaned: dict[str, Any]) -> dict[str, Any]:
        total = cleaned.get("total")
        return {
            "per_move": cleaned.get("per_move"),
            "total": total * 60 if total else None,
            "increment": cleaned.get("increment"),
            "days": cleaned.get("days"),
        }

    def time_control(self) -> dict[str, int]:
        control = getattr(self, "_control", None)
        return control.to_json() if control is not None else {}

    def drop_time_control(self) -> None:
        """A real-time game: no turns to time (its time limit is a table
        option of the game)."""
        for name in ("per_move", "total", "increment", "days"):
            del self.fields[name]


class TableForm(TimeControlForm):
    players = forms.TypedChoiceField(coerce=int, label=_("Players"))
    rated = forms.BooleanField(label=_("Rated"), required=False)
    spectator_delay = forms.IntegerField(
        label=_("Spectator delay (moves)"), min_value=0, max_value=50, initial=0
    )

    def __init__(self, *args: Any, game: GameInfo, **kwargs: Any) -> None:
        # Ids of their own: the lobby shows this form beside quick play and a
        # challenge, which share field names ("Rated" toggled the wrong box).
        kwargs.setdefault("auto_id", "id_table_%s")
        super().__init__(*args, **kwargs)
        self.game = game
        cast(forms.ChoiceField, self.fields["players"]).choices = [
            (n, str(n)) for n in range(game.min_players, game.max_players + 1)
        ]
        if game.realtime:
            # No turns to time: the game's own options hold its time limit.
            self.drop_time_control()
        self.order_fields(["players"])
        for option in table_options(game.id):
            name = f"opt_{option.key}"
            if option.kind == "choice":
                self.fields[name] = forms.ChoiceField(
                    label=gettext(option.label),
                    choices=[(key, gettext(text)) for key, text in option.choices],
                    initial=option.default,
                )
            elif option.kind == "bool":
                self.fields[name] = forms.BooleanField(
                    label=gettext(option.label), required=False, initial=option.default
                )
            else:
                self.fields[name] = forms.IntegerField(
                    label=gettext(option.label),
                    min_value=option.min_value,
                    max_value=option.max_value,
                    initial=option.default,
                )
            # The game's words (gameplay.rules.meta.N_) in the reader's language.
            self.fields[name].help_text = (
                gettext(option.help_text) if option.help_text else ""
            )

    def options(self) -> dict[str, Any]:
        return {
            option.key: self.cleaned_data[f"opt_{option.key}"]
            for option in table_options(self.game.id)
        }


class ChallengeForm(TimeControlForm):
    username = forms.CharField(label=_("Player to challenge"), max_length=150)
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def __init__(self, *args: Any, game: GameInfo | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_challenge_%s")  # see TableForm
        super().__init__(*args, **kwargs)
        if game is not None and game.realtime:
            self.drop_time_control()
        self.order_fields(["username", "rated"])


class QuickPlayForm(TimeControlForm):
    """Quick play pairs only players who asked for the same time control."""

    players = forms.TypedChoiceField(coerce=int, label=_("Players"))
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def __init__(self, *args: Any, game: GameInfo, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_quick_%s")  # see TableForm
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["players"]).choices = [
            (n, str(n)) for n in range(game.min_players, game.max_players + 1)
        ]
        if game.realtime:
            self.drop_time_control()
        self.order_fields(["players", "rated"])


class PlayBotForm(forms.Form):
    """One click to play the computer: a strength, rated if the player asks."""

    bot = forms.ChoiceField(label=_("Strength"))
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_(
            "Counts on the game's ladder, where the built-in bots hold fixed ratings."
        ),
    )

    def __init__(self, *args: Any, game: GameInfo, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_playbot_%s")  # see TableForm
        super().__init__(*args, **kwargs)
        from gameplay.selectors import play_bot_strengths

        choices = [
            (row["bot"], f"{row['strength']}: {row['name']}")
            for row in play_bot_strengths(game=game.id)
        ]
        field = cast(forms.ChoiceField, self.fields["bot"])
        field.choices = choices
        names = [name for name, _ in choices]
        field.initial = "heuristic" if "heuristic" in names else names[0]
        if game.min_players > 2:
            field.help_text = gettext(
                "%(n)s bots play you; at a rated game each a different one, "
                "the nearest in strength."
            ) % {"n": game.min_players - 1}


class BotSeatForm(forms.Form):
    # The table page shows the select without its label, beside the button.
    bot = forms.ChoiceField(
        label=_("Bot"), widget=forms.Select(attrs={"aria-label": _("Bot")})
    )
    #: Said next to the form at a rated table, which seats each bot once.
    RATED_NOTE = _(
        "Rated table: each bot takes one seat. Two seats of one bot would be "
        "one player to the ratings, and the game could not be rated."
    )

    def __init__(
        self,
        *args: Any,
        game: str | None = None,
        rated: bool = False,
        seated: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        """Built-in bots, then (given the table's ``game``) the uploaded bots
        that can play it now and the connected bots online for it, so all are
        seated the same way. At a ``rated``
        table the built-in bots already ``seated`` (agent names) are left out
        (``gameplay.services.repeated_bot_error`` says why)."""
        super().__init__(*args, **kwargs)
        from gameplay.agents import builtin_agent
        from gameplay.lobby import seatable_connected_bots, seatable_uploaded_bots
        from gameplay.rules import get_game
        from gameplay.rules.bots import (
            BOT_STRENGTHS,
            available_bots,
            bot_display_name,
            bot_plays,
        )

        builtin = [
            (
                name,
                f"{BOT_STRENGTHS[name]}: {bot_display_name(name)}"
                if name in BOT_STRENGTHS
                else bot_display_name(name),
            )
            for name in available_bots()
            if (game is None or bot_plays(name, get_game(game)))
            and not (rated and builtin_agent(name) in seated)
        ]
        self.note = self.RATED_NOTE if rated else ""
        uploaded = seatable_uploaded_bots(game=game) if game else []
        connected = seatable_connected_bots(game=game) if game else []
        groups = [
            (gettext("Uploaded bots"), uploaded),
            (gettext("Connected bots (online)"), connected),
        ]
        cast(forms.ChoiceField, self.fields["bot"]).choices = (
            [(gettext("Built-in bots"), builtin), *[g for g in groups if g[1]]]
            if uploaded or connected
            else builtin
        )
        #: Whether any bot is left to seat (the page hides an empty menu).
        self.has_choices = bool(builtin or uploaded or connected)
