"""``python -m gameplay.rules simulate ...``: see :mod:`gameplay.rules.simulate`."""

from __future__ import annotations

import sys

from gameplay.rules.simulate import main

if __name__ == "__main__":
    sys.exit(main())
