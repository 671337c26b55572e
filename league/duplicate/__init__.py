"""Duplicate events for people (issue 31 §3): every table of a round plays the
same committed deals, and each player is scored by matchpoints against
everyone who held the same seat of the same deal and against a built-in
bot's result there ("par"). docs/tournaments.md, "Duplicate events"."""
