"""Character arrays set from string literals: `char name[] = "ab";`, `char u[8] = "xy";`.

C copies the literal's characters and its terminating zero into the array, and zeroes the
rest; the output has no array initializers in the middle of a function (it declares every
local at the top), so the front end writes one assignment per character instead."""
import ast

from pycparser import c_ast

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X


def is_string(node):
    """Whether a pycparser node is a string literal."""
    return isinstance(node, c_ast.Constant) and node.type == "string"


def string_bytes(literal, loc):
    """The characters of a C string literal as written (`"a\\n" "b"`), as byte values,
    without the terminating zero."""
    out = bytearray()
    text = literal.strip()
    while text:
        if not text.startswith('"'):
            raise AdgenError("unsupported string literal (a wide or prefixed one)", loc)
        end = 1
        while text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        try:
            out += ast.literal_eval("b" + text[:end + 1])
        except (SyntaxError, ValueError):
            raise AdgenError(f"unsupported string literal {text[:end + 1]}", loc)
        text = text[end + 1:].strip()
    return bytes(out)


def string_array_length(literal, loc):
    """The length of `char a[] = "..."`: the characters and the terminating zero."""
    return len(string_bytes(literal, loc)) + 1


def string_array_init(target, t, literal, loc):
    """Assignments setting the char array target (of array type t, its length known)
    as C initializes it from the string literal: its characters, then zeros."""
    n = X.int_value(t.size) if t.size is not None else None
    if n is None:
        raise AdgenError("a character array set from a string needs a constant length", loc)
    chars = string_bytes(literal, loc)
    if len(chars) > n:
        raise AdgenError("the string is longer than the array it initializes", loc)
    elem = ir.with_const(t.elem, False)
    return [ir.Assign(ir.Index(X.clone(target), ir.Const(str(k), ir.INT), elem, loc),
                      ir.Const(_char_text(chars[k]) if k < len(chars) else "0", elem, loc), loc)
            for k in range(n)]


def _char_text(b):
    """A character constant's C text: `'a'`, or its value for others."""
    c = chr(b)
    return f"'{c}'" if c.isalnum() or c in " .,:;_-+*/=()[]<>!?#%&|^~@$" else str(b)

