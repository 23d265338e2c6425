"""The exceptions of the tsmlir package; each carries tsmlir's diagnostic."""
import builtins


class CompileError(Exception):
    """A model could not be compiled or loaded: an unsupported op, a bad
    archive, a missing file. The message names the op and its location."""


class RuntimeError(builtins.RuntimeError):  # noqa: A001 (tsmlir.RuntimeError)
    """A compiled model refused a call or failed while running it."""
