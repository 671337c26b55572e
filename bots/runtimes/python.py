"""Python 3, standard library only: the platform's first runtime."""

from __future__ import annotations

import ast

from bots.sandbox.policy import BOT_MOUNT, SandboxConfig
from bots.sdk import SDK_PATH

from .base import Runtime, UploadError


def declared_game(source: bytes) -> str | None:
    """The ``GAME = "<id>"`` a bot may declare at module level (never executed).

    The SDK's examples declare it, so uploading a Duelo bot to a bot of another
    game is caught before validation wastes a sandbox on it.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "GAME"
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return None


class PythonRuntime(Runtime):
    name = "python"
    label = "Python 3 (standard library)"
    entrypoint = "main.py"
    suffixes = (".py",)
    sdk_files = (SDK_PATH,)

    def check_upload(self, files: dict[str, bytes], *, game: str) -> None:
        entry = self.entrypoint
        try:
            text = files[entry].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UploadError(f"{entry} is not UTF-8 text ({exc.reason}).") from exc
        try:
            # compile() only parses and builds code objects; nothing is executed.
            compile(text, entry, "exec", dont_inherit=True)
        except SyntaxError as exc:
            raise UploadError(
                f"{entry} has a syntax error at line {exc.lineno}: {exc.msg}."
            ) from exc
        except ValueError as exc:
            raise UploadError(f"{entry} cannot be compiled: {exc}.") from exc
        except (RecursionError, MemoryError) as exc:
            # 200,000 chained additions or 900,000 unary minus signs nest deeper
            # than the compiler can follow; no real bot is written like that.
            raise UploadError(
                f"{entry} cannot be compiled: its expressions nest too deeply "
                "(split long expressions into statements)."
            ) from exc
        super().check_upload(files, game=game)

    def declared_game(self, source: bytes) -> str | None:
        return declared_game(source)

    def command(self, config: SandboxConfig) -> list[str]:
        return [
            config.interpreter,
            *config.interpreter_args,
            f"{BOT_MOUNT}/{self.entrypoint}",
        ]
