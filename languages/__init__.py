"""The site in its games' languages: the active language per request, the
language switcher, the JavaScript catalogue and the translation catalogue checks
(docs/i18n.md)."""
