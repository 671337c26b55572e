"""Leagues with divisions: tables of a set size, promotion and relegation.

``services`` builds a season's divisions (returning members moved up or down,
newcomers placed by rating) and freezes a finished season's tables;
``selectors`` reads each division's table with its promotion and relegation
zones. The rules are in docs/leagues.md.
"""
