"""Build hook for the optional C extension; everything else is in pyproject.toml.

``gameplay/rules/kungfu2013/_fastplay.c`` is the native random-playout kernel of
Kung Fu (2013). It is optional: without a C compiler (or Python headers) the
build skips it with a warning and the engine's Python playout is used instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "gameplay.rules.kungfu2013._fastplay",
            sources=["gameplay/rules/kungfu2013/_fastplay.c"],
            optional=True,
        )
    ]
)
