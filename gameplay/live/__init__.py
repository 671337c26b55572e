"""Live play's move path: one owner per match per web process (``owner``),
holding the match in memory, appending moves with one compare-and-set round
trip (``store``) and broadcasting from memory. See ``owner``'s docstring and
docs/performance.md ("Live play")."""
