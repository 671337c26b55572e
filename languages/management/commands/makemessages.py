"""``makemessages`` that also knows static/js's ``t()`` and ``tn()`` markers.

Run from the project root with every language, e.g.
``python manage.py makemessages -a`` and ``python manage.py makemessages -a -d
djangojs`` (needs GNU gettext; docs/i18n.md).
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=t",
        "--keyword=tn:1,2",
        "--keyword=N_",  # gameplay.rules.meta.N_ (the engines' game metadata)
    ]
