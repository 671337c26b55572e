"""The one announcement other apps react to.

``match_finished`` is sent exactly once per match (see
``services.match_announce_finished``), after the finishing transaction commits.
Receivers (ratings, tournaments, bot ladders) get ``match_id`` and should enqueue
their own idempotent Celery task rather than do heavy work inline.
"""

from django.dispatch import Signal

match_finished = Signal()  # kwargs: match_id: int
