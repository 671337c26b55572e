"""factory_boy factories shared by the whole suite."""

import factory

from accounts.models import User


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    display_name = factory.LazyAttribute(lambda u: u.username.title())
    password = factory.PostGenerationMethodCall("set_password", "correct-horse-42")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


# --- bots (appended by the bots app) ----------------------------------------------


class BotFactory(factory.django.DjangoModelFactory):
    """A bot row without code; use bots.services to store real versions."""

    class Meta:
        model = "bots.Bot"

    owner = factory.SubFactory(UserFactory)
    game = "duelo"
    name = factory.Sequence(lambda n: f"bot{n}")


class BotVersionFactory(factory.django.DjangoModelFactory):
    """A version row only (no files): for pages, lists and ladder pairing."""

    class Meta:
        model = "bots.BotVersion"

    bot = factory.SubFactory(BotFactory)
    number = factory.Sequence(lambda n: n + 1)
    sha256 = "0" * 64
    filename = "main.py"
    upload_bytes = 100
    unpacked_bytes = 100
    file_count = 1
