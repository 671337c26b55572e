"""English dates as the site always showed them (day month year, 24-hour
clock) rather than Django's American default; other languages keep Django's
formats for their locale (docs/i18n.md)."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j M Y H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
