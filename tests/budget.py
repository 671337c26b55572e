"""How many examples a property test tries: a share in the default suite, all
of them with the slow set (CI's PostgreSQL pass runs it).

A property over whole random games costs a game per example; the default
suite's run keeps enough examples to fail on a broken rule (hypothesis draws
the same derandomized examples first in both runs), and the slow set tries the
full count. Usage, with the property's body in a plain function::

    @split_examples(default=20, slow=60)
    def test_something(examples: int) -> None:
        settings(PROPS, max_examples=examples)(given(...)(_something))()
"""

from __future__ import annotations

import pytest


def split_examples(*, default: int, slow: int) -> pytest.MarkDecorator:
    """Parametrize ``examples``: ``default`` in make test, ``slow`` in the slow set."""
    if not 0 < default < slow:
        raise ValueError(
            f"default ({default}) must be positive and below slow ({slow})"
        )
    return pytest.mark.parametrize(
        "examples",
        [
            pytest.param(default, id=f"{default}-examples"),
            pytest.param(slow, id=f"{slow}-examples", marks=pytest.mark.slow),
        ],
    )
