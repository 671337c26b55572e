"""``compilemessages`` without GNU gettext: polib writes the ``.mo`` files.

The ``.mo`` files are committed (a bare machine serves and tests every language);
tests/languages/test_catalogue.py fails when one no longer matches its ``.po``.
"""

from django.core.management.base import BaseCommand

from languages.catalog import compile_catalogues


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po to .mo (polib; no msgfmt needed)."

    def handle(self, *args, **options) -> None:
        for path in compile_catalogues():
            self.stdout.write(f"compiled {path}")
