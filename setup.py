"""Build hook for the optional C extensions; everything else is in pyproject.toml.

Every ``gameplay/rules/<game>/_fast<part>.c`` is a game's native code (a
random-playout kernel, or a hot path of its public API such as building
observations), built as the module ``gameplay.rules.<game>._fast<part>`` (found
by the glob below, so adding one touches no shared file; ``gameplay/rules/splitmix.h``,
the C side of ``rng.py``, is what the kernels share, ``observe.h`` what the C
builds of ``observe`` share; a kernel too long for one file includes parts
that are headers in its game's folder, never ``_fast*.c``). Each is optional:
without a C compiler (or Python headers) the build skips it with a warning and
the game's Python code is used instead.
"""

from pathlib import Path

from setuptools import Extension, setup

KERNELS = sorted(Path("gameplay/rules").glob("*/_fast*.c"))

setup(
    ext_modules=[
        Extension(
            f"gameplay.rules.{path.parent.name}.{path.stem}",
            sources=[path.as_posix()],
            # rng.py in C, and the helpers of the C observes: shared; a game's
            # own headers (parts of its kernels) are in its folder
            depends=[
                "gameplay/rules/splitmix.h",
                "gameplay/rules/observe.h",
                *sorted(h.as_posix() for h in path.parent.glob("*.h")),
            ],
            optional=True,
        )
        for path in KERNELS
    ]
)
