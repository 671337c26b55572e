"""Django's PostgreSQL backend with a health check at most once a second per
connection (``base.DatabaseWrapper``)."""
