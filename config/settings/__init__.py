"""Settings per mode: ``development`` (default), ``test`` and ``production``.

Every mode reads the same environment variables (see the README's table); the
modes differ only in safe defaults and in what they refuse.
"""
