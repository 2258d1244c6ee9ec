"""The text of a head, Tapenade's way: `f(y1 y2)/(x1 x2)`, dependents then independents."""
import re

from adgen.errors import AdgenError

_HEAD = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\(([^()]*)\))?\s*(?:/\s*\(([^()]*)\))?\s*$")


def parse_head(spec):
    """`f(y1 y2)/(x1 x2)` -> ('f', ['y1', 'y2'], ['x1', 'x2']); None for a missing list."""
    m = _HEAD.match(spec)
    if not m:
        raise AdgenError(f"malformed --head '{spec}': expected NAME(outputs)/(inputs)")
    split = lambda s: None if s is None else [w for w in re.split(r"[\s,]+", s) if w]  # noqa
    return m.group(1), split(m.group(2)), split(m.group(3))
