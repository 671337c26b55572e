from tests.gameplay.conftest import players  # noqa: F401  (the fixture)
