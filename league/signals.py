"""League announcements other apps react to; league never imports its listeners.

``round_paired`` is sent after the transaction that paired a tournament round
commits (``round_id``): the round's pairings, byes included, exist by then.
Receivers (player notifications and e-mails) must not assume it is sent only
once: key what they create on the round.
"""

from django.dispatch import Signal

round_paired = Signal()  # kwargs: round_id: int
