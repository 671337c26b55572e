"""The bot SDK: ``kungfu_bot.py`` is what bots import inside the sandbox.

It is a standalone module (standard library only) so that it can be copied next
to a bot's ``main.py``; :data:`SDK_PATH` is where the platform copies it from.
"""

from pathlib import Path

from bots.sdk.kungfu_bot import GameOver, Hello, Turn, log, run

#: The file placed next to every stored bot that does not ship its own copy.
SDK_PATH = Path(__file__).with_name("kungfu_bot.py")
SDK_MODULE = "kungfu_bot.py"

__all__ = ["SDK_MODULE", "SDK_PATH", "GameOver", "Hello", "Turn", "log", "run"]
