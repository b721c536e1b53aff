"""Math modes (gemmkit_math, docs/MATH.md) by name: "fp32", "3xtf32",
"tf32", "int8x" (the Ozaki scheme II; its moduli: GEMMKIT_OZAKI_MODULI);
None leaves the choice to the context."""

# gemmkit_math's values (include/gemmkit.h; test_math checks them against it).
MODES = {"fp32": 1, "3xtf32": 2, "tf32": 3, "int8x": 4}
DEFAULT = 0  # GEMMKIT_MATH_DEFAULT: the context's mode


def math_code(mode, allow_default=True):
    """The gemmkit_math value of a mode name (any case); None: the
    context's mode, where allowed. Other values raise ValueError."""
    if mode is None and allow_default:
        return DEFAULT
    key = mode.lower() if isinstance(mode, str) else mode
    if key not in MODES:
        raise ValueError("gemmkit: math must be %s, not %r" %
                         (", ".join(map(repr, MODES)) + (" or None" if allow_default else ""), mode))
    return MODES[key]


def math_name(code):
    """The name of a gemmkit_math value."""
    for name, value in MODES.items():
        if value == code:
            return name
    return "default" if code == DEFAULT else "unknown (%d)" % code
