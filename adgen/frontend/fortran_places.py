"""Where in a Fortran source an error is. fparser knows the lines a statement spans, not
the columns of what is in it: the place of an error is its statement's, narrowed when the
error is made to the first name its message quotes (`'acc'`, `ASSOCIATE of 'v'`) that the
statement's code spells (case-insensitive, a whole word, not in a string or a comment,
perhaps on a continuation line), else to the statement's first character. At the bottom
of the front end's imports: it imports no other module of it."""
import linecache
import re
from dataclasses import dataclass

from adgen.errors import Loc

FREE_SUFFIXES = (".f90", ".f95", ".f03", ".f08")
CPP_SUFFIXES = (".F", ".F90", ".F95", ".F03", ".F08", ".FOR")

# a quoted part of a message: its quotes not inside a word (`the program's`)
_QUOTED = re.compile(r"(?<!\w)'([^'\n]*\w[^'\n]*)'(?!\w)")
_FIXED_FORM_WIDTH = 72      # (the columns after it are a card's sequence number)


def free_form(path):
    """Whether a Fortran source is in free form, by its suffix (`.F90` too: the
    preprocessor's suffixes keep the form of their lower-case ones)."""
    return path.lower().endswith(FREE_SUFFIXES + tuple(x.lower() for x in CPP_SUFFIXES[1:]))


@dataclass(frozen=True)
class StatementLoc(Loc):
    """The place of a statement: lines `line` to `last_line` of `file`, in fixed form or
    free form. An error made at it is at what its message is about (`about`); until then
    its column is unknown (0)."""
    last_line: int = 0
    fixed: bool = False

    def about(self, message):
        code = statement_code(self.file, self.line, max(self.line, self.last_line),
                              self.fixed)
        for quoted in _QUOTED.findall(message):
            m = _token_pattern(quoted).search(code.text)
            if m:
                return Loc(self.file, *code.places[m.start()])
        start = re.search(r"\S", code.text)
        if start:
            return Loc(self.file, *code.places[start.start()])
        # a comment line (a directive): its first character
        text = linecache.getline(self.file, self.line)
        indent = len(text) - len(text.lstrip()) if text.strip() else 0
        return Loc(self.file, self.line, indent + 1)


def statement_loc(path, node):
    """The place of the statement node is (or begins with), in the file its lines come
    from: an INCLUDEd file's lines are in that file. Line 0 when fparser gave none."""
    item = statement_item(node)
    if item is None:
        return Loc(path, 0, 1)
    from fparser.common.readfortran import FortranFileReader
    reader = item.reader
    if isinstance(reader, FortranFileReader):
        path = reader.id        # the source or a file it INCLUDEs
    fixed = reader.format.is_fixed
    return StatementLoc(path, item.span[0], 0, item.span[1], fixed)


def line_loc(path, line):
    """The place of the statement at a line of a source, its form told by its suffix."""
    return StatementLoc(path, line, 0, line, not free_form(path)) if line else Loc(path, 0, 1)


def statement_item(node, depth=0):
    """fparser's reader item of node's statement (its first one, for a construct): the
    lines it spans and the reader that read them; None when there is none."""
    item = getattr(node, "item", None)
    if item is not None and getattr(item, "span", None):
        return item
    if depth < 3:
        for c in getattr(node, "children", None) or []:
            if c is not None and not isinstance(c, str):
                found = statement_item(c, depth + 1)
                if found is not None:
                    return found
    return None


@dataclass
class StatementCode:
    """A statement's code as one text: its lines' code, each followed by a blank, without
    comments and continuation marks, the characters inside its strings made NULs; and the
    (line, column) in the file of each character."""
    text: str
    places: list


def statement_code(path, first, last, fixed):
    """The code of the statement on lines first to last of a source."""
    linecache.checkcache(path)      # (a file rewritten since it was last read)
    code, quote = StatementCode("", []), None
    for line in range(first, last + 1):
        text = linecache.getline(path, line).rstrip("\r\n")
        ranges = _fixed_form_code(text, line == first) if fixed else \
            _free_form_code(text, line == first, quote)
        for start, end in ranges:
            quote = _add_code(code, text, line, start, end, quote, fixed)
    return code


def _add_code(code, text, line, start, end, quote, fixed):
    """Add the code of text[start:end], line `line` of the source, and a blank after it to
    code; the string left open at its end (its quote), None if none."""
    chars, col = [], start
    while col < end:
        ch = text[col]
        if quote is not None:
            doubled = ch == quote and col + 1 < end and text[col + 1] == quote
            if ch == quote and not doubled:
                quote = None
            else:
                ch = "\0"
            if doubled:         # a quote inside the string: both characters of it
                chars.append(("\0", col))
                col += 1
        elif ch in "'\"":
            quote = ch
        elif ch == "!" or ch == "&" and not fixed and not text[col + 1:].split("!")[0].strip():
            break               # a comment, or the mark that the next line continues
        chars.append((ch, col))
        col += 1
    code.text += "".join(ch for ch, _ in chars) + " "
    code.places += [(line, at + 1) for _, at in chars] + [(line, end + 1)]
    return quote


def _free_form_code(text, initial, in_string):
    """The (start, end) character ranges of a free-form line that hold code: none for a
    comment line or a preprocessor line; a continuation line's after its `&`."""
    stripped = text.lstrip()
    if not in_string and (not stripped or stripped[0] in "!#"):
        return []
    start = len(text) - len(stripped)
    if not initial and stripped.startswith("&"):
        start += 1
    return [(start, len(text))]


def _fixed_form_code(text, initial):
    """The ranges of a fixed-form line that hold code: none for a comment line; a
    continuation line's after its column 6 (or the digit after its tab), an initial
    line's label field and statement field."""
    stripped = text.lstrip()
    if not stripped or text[0] in "cC*!" or stripped[0] == "#" or \
            stripped[0] == "!" and len(text) - len(stripped) != 5:
        return []
    tab = text.find("\t", 0, 6)
    if tab >= 0:        # tab format: a digit after the tab marks a continuation line
        if initial:
            return [(0, tab), (tab + 1, len(text))]
        return [(tab + 1 + (text[tab + 1:tab + 2] in set("123456789")), len(text))]
    end = min(len(text), _FIXED_FORM_WIDTH)
    return [(0, min(5, end)), (6, end)] if initial else [(6, end)]


def _token_pattern(quoted):
    """What matches a quoted name in code: its words and signs, blanks allowed between
    them, a whole word at each end, in any case."""
    parts = re.findall(r"\w+|\S", quoted)
    pattern = r"\s*".join(map(re.escape, parts))
    if re.match(r"\w", parts[0]):
        pattern = r"(?<!\w)" + pattern
    if re.match(r"\w", parts[-1]):
        pattern = pattern + r"(?!\w)"
    return re.compile(pattern, re.I)
