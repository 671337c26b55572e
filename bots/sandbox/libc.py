"""The few libc calls the standard library of Python 3.11 lacks.

``prctl`` (the parent-death signal), ``setns`` (join a slot's network
namespace) and ``unshare`` (create one). They are resolved at import so that
a fork child, between fork and exec, only calls already-resolved functions.
"""

from __future__ import annotations

import ctypes

PR_SET_PDEATHSIG = 1
CLONE_NEWNET = 0x40000000

_libc = ctypes.CDLL(None, use_errno=True)
prctl = _libc.prctl
prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
prctl.restype = ctypes.c_int
setns = _libc.setns
setns.argtypes = (ctypes.c_int, ctypes.c_int)
setns.restype = ctypes.c_int
unshare = _libc.unshare
unshare.argtypes = (ctypes.c_int,)
unshare.restype = ctypes.c_int
mount = _libc.mount
mount.argtypes = (
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_ulong,
    ctypes.c_char_p,
)
mount.restype = ctypes.c_int
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
