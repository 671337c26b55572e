"""The announcements other apps react to; gameplay never imports its listeners.

``match_finished`` is sent after the finishing transaction commits, and again
by beat until every receiver has returned without raising (the finished match
row is its own outbox entry: ``services.match_announce_finished``). Receivers
(ratings, tournaments, bot ladders) get ``match_id`` (and the match's
``rated`` and ``context``, which never change once it is created, so a
receiver can tell without a read that it has nothing to do for it) and must
enqueue their own idempotent Celery task at once (not ``on_commit``), letting a
broker error raise, so a match finished during a Redis outage is announced
when it is back.

``match_started`` is sent once per match from ``services.match_start`` (the one
place every start goes through: an accepted challenge, a quick-play pairing, a
tournament or league round, a table filling or started by its host), after the
starting transaction commits. Receivers get ``match_id``; they bring the
players to the game (``notifications``), so they must be quick.

``challenge_created`` is sent after a direct challenge is committed
(``challenge_id``), so the challenged player can be told;
``challenge_answered`` after it is accepted, declined or withdrawn, so that
news stops asking for attention.

``match_opened`` is sent when a seated person opens the match's page or its
socket (``services.seat_connected``), with ``match_id`` and ``user_id``: what
told them about the game has been seen. Receivers run on every socket
connect, so they must be one cheap statement.

``seat_changed`` is sent after the commit when a person takes a seat at a
waiting table (``change="joined"``), gives it back (``"left"``), or when a
seat gives up a match that goes on with a bot in its place
(``"forfeited"``, with the seat's ``reason``: "resigned", "time forfeit",
"abandoned"...). A forfeit that ends the match is told by ``match_finished``
instead. Receivers get ``match_id``, ``seat_number``, ``user_id`` (None for
a bot's seat), ``change`` and ``reason``; they must be quick (chat lines).
"""

from django.dispatch import Signal

match_finished = Signal()  # kwargs: match_id: int, rated: bool, context: str

# Sent after a committed change when an uploaded bot's seat is to act; the bots
# app drives it in a sandboxed worker. kwargs: match_id: int, seats: list[int].
uploaded_bot_turn = Signal()
match_started = Signal()  # kwargs: match_id: int
challenge_created = Signal()  # kwargs: challenge_id: int
challenge_answered = Signal()  # kwargs: challenge_id: int, user_id: int
match_opened = Signal()  # kwargs: match_id: int, user_id: int
seat_changed = Signal()  # kwargs: match_id, seat_number, user_id, change, reason
