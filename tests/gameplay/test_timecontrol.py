"""The time-control value object: what is accepted, how it reads, its labels."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from gameplay.timecontrol import (
    CORRESPONDENCE,
    LIVE,
    UNTIMED,
    TimeControl,
    TimeControlError,
)


@pytest.mark.parametrize(
    ("data", "kind", "label"),
    [
        ({}, UNTIMED, "untimed"),
        (None, UNTIMED, "untimed"),
        ({"per_move": 30}, LIVE, "30 s/move"),
        ({"total": 300, "increment": 5}, LIVE, "5 min + 5 s"),
        ({"total": 600}, LIVE, "10 min"),
        ({"total": 3600, "per_move": 60}, LIVE, "1 h, 60 s/move"),
        ({"days": 1}, CORRESPONDENCE, "1 day/move"),
        ({"days": 14}, CORRESPONDENCE, "14 days/move"),
    ],
)
def test_accepted_controls_read_back_alike(data, kind, label):
    control = TimeControl.parse(data)
    assert control.kind == kind
    assert control.label == label
    assert TimeControl.from_json(control.to_json()) == control


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"days": 4}, "one of 1, 2, 3, 5, 7, 14"),
        ({"days": 3, "per_move": 30}, "days per move only"),
        ({"increment": 5}, "needs a total"),
        ({"per_move": 2}, "between 5 and 3600"),
        ({"total": 10**9}, "between 30 and"),
        ({"total": 300, "increment": 1000}, "increment must be between"),
        ({"per_move": "30"}, "whole number"),
        ({"days": True}, "whole number"),
        ({"hours": 3}, "unknown time-control field(s): hours"),
        ([30], "JSON object"),
    ],
)
def test_refused_controls_say_why(data, message):
    with pytest.raises(TimeControlError, match=re.escape(message)):
        TimeControl.parse(data)


def test_move_limits_and_increment():
    assert TimeControl.parse({"days": 3}).move_limit == timedelta(days=3)
    assert TimeControl.parse({"per_move": 20}).move_limit == timedelta(seconds=20)
    live = TimeControl.parse({"total": 300, "increment": 5})
    assert live.move_limit is None
    assert (live.total_ms, live.increment_ms) == (300_000, 5_000)
    assert TimeControl.parse({"days": 2}).pool_suffix == CORRESPONDENCE
    assert live.pool_suffix == ""


@pytest.mark.parametrize(
    "data",
    [None, {}, {"per_move": 30}, {"total": 300, "increment": 5}, {"days": 3}],
)
def test_kept_labels_follow_the_language(data):
    """``time_control_label`` keeps each label it words, per language: asked
    again, in any order of languages, it says what ``TimeControl`` says."""
    from django.utils import translation

    from gameplay.timecontrol import time_control_label

    for language in ("en", "de", "en", "de"):
        with translation.override(language):
            assert time_control_label(data) == TimeControl.from_json(data).label
    with translation.override("de"):
        assert time_control_label({}) == "ohne Zeitlimit"
    with translation.override("en"):
        assert time_control_label(None) == "untimed"
