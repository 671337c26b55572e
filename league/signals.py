"""League announcements other apps react to; league never imports its listeners.

``round_paired`` is sent after the transaction that paired a tournament round
commits (``round_id``): the round's pairings, byes included, exist by then.
Receivers (player notifications and e-mails) must not assume it is sent only
once: key what they create on the round. ``checkin_opened`` is sent when a
tournament's check-in window opens (``tournament_id``), after the commit that
marked it.
"""

from django.dispatch import Signal

round_paired = Signal()  # kwargs: round_id: int
# Sent once when a tournament's check-in opens (the tick marks it first).
checkin_opened = Signal()  # kwargs: tournament_id: int
