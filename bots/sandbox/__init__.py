"""Sandbox for untrusted, uploaded bots (bubblewrap + uid + rlimits + seccomp).

Plain Python on purpose (no Django import): settings are passed in as a
:class:`SandboxConfig`, so the sandbox can be tested and audited on its own.
See docs/sandbox.md for the threat model and every layer.
"""

from .policy import (
    BOT_MOUNT,
    WORK_DIR,
    SandboxConfig,
    SandboxError,
    SandboxLimits,
    SandboxUnavailable,
)
from .process import (
    SandboxedProcess,
    describe_exit,
    spawn_sandboxed,
    spawn_unsandboxed,
)
from .selftest import (
    SandboxStatus,
    reset_sandbox_cache,
    run_selftest,
    sandbox_available,
)
from .slots import SlotAllocator
from .uids import kill_uid, processes_of_uid

__all__ = [
    "BOT_MOUNT",
    "WORK_DIR",
    "SandboxConfig",
    "SandboxError",
    "SandboxLimits",
    "SandboxStatus",
    "SandboxUnavailable",
    "SandboxedProcess",
    "SlotAllocator",
    "describe_exit",
    "kill_uid",
    "processes_of_uid",
    "reset_sandbox_cache",
    "run_selftest",
    "sandbox_available",
    "spawn_sandboxed",
    "spawn_unsandboxed",
]
