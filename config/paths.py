"""Where the project directory is: templates/, static/, docs/ and var/.

Those are not Python packages, so an installed copy of the platform (``pip
install .``, the Docker image) does not carry them; ``ARENA_DIR`` names the
directory that holds them. A checkout needs nothing: it is its own project
directory.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_DIR = Path(
    os.environ.get("ARENA_DIR") or Path(__file__).resolve().parent.parent
)
