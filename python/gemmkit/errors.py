"""gemmkit's status codes as Python exceptions, with the library's messages."""
import enum

from ._library import lib


class Status(enum.IntEnum):
    """gemmkit_status (include/gemmkit.h)."""
    SUCCESS = 0
    NULL_POINTER = -1
    INVALID_LAYOUT = -2
    INVALID_TRANSPOSE = -3
    INVALID_SIZE = -4
    INVALID_LEADING_DIM = -5
    SIZE_OVERFLOW = -6
    BUFFER_TOO_SMALL = -7
    OUT_OF_DEVICE_MEMORY = -8
    OUT_OF_HOST_MEMORY = -9
    BUILD_FAILED = -10
    NO_DEVICE = -11
    UNKNOWN_KERNEL = -12
    INVALID_KERNEL_PARAMS = -13
    UNSUPPORTED_BY_DEVICE = -14
    UNSUPPORTED_BACKEND = -15
    BACKEND_FAILURE = -16
    INVALID_ARGUMENT = -17
    UNSUPPORTED_MATH = -18


class GemmkitError(RuntimeError):
    """A call into libgemmkit failed. `status` is the Status, `message` the
    library's details (gemmkit_last_error_message), `build_log` the compiler
    output when a kernel failed to build."""

    def __init__(self, status, message, build_log=""):
        self.status = Status(status) if status in Status._value2member_map_ else status
        self.message = message
        self.build_log = build_log
        name = lib.gemmkit_strerror(int(status)).decode()
        super().__init__("gemmkit: %s: %s" % (name, message) if message else "gemmkit: %s" % name)


def check(status):
    """Raises GemmkitError for a failed call. Call it right after the C call,
    on the same thread: the message is the thread's last failure."""
    if status != 0:
        message = lib.gemmkit_last_error_message().decode(errors="replace")
        log = lib.gemmkit_last_build_log().decode(errors="replace") if status == Status.BUILD_FAILED else ""
        raise GemmkitError(status, message, log)
