"""Columns of the C source as written, for the positions pycparser gives.

pycparser reads the preprocessor's output, in which gcc -E writes each line with its runs
of spaces made one (`x  *    g(x)` becomes `x * g(x)`): a column counted there points left
of the token in the file, and an error's caret under the wrong character. Where a line of
the output differs from the line of the file it comes from, its columns are mapped back
by walking both lines' characters other than white space (and comments) together, as far
as they agree (up to a macro expanded: columns after that stay as they are).
"""
from pycparser import c_parser

from adgen.frontend.preprocess import linemark


def column_maps(text):
    """{(file, line): {column in text: column in the file}} for the lines of the
    preprocessed text that differ from the lines of the files they come from."""
    maps, sources = {}, {}
    where = None
    for line in text.split("\n"):
        mark = linemark(line)
        if mark is not None:
            where = list(mark)
            continue
        if where is None:
            continue
        path, number = where
        where[1] += 1
        if not line.strip() or path.startswith("<"):
            continue
        if path not in sources:
            sources[path] = _lines_of(path)
        written = sources[path]
        if written is None or number > len(written) or written[number - 1] == line:
            continue
        columns = _aligned(line, written[number - 1])
        if columns:
            maps[(path, number)] = columns
    return maps


def _lines_of(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().split("\n")
    except OSError:
        return None


def _aligned(out, written):
    """{column of out: column of written} (from 1) of the characters other than white space
    the two lines share from their starts, where they differ in place."""
    theirs = _visible(written)
    columns = {}
    for a, b in zip((k for k, ch in enumerate(out) if not ch.isspace()), theirs):
        if out[a] != written[b]:
            break
        if a != b:
            columns[a + 1] = b + 1
    return columns


def _visible(written):
    """The positions of a line's characters other than white space, outside comments (the
    preprocessor leaves those out); a comment going on past the line ends it."""
    out, k, quote = [], 0, None
    while k < len(written):
        ch = written[k]
        if quote is None and written.startswith("/*", k):
            end = written.find("*/", k + 2)
            if end < 0:
                break
            k = end + 2
            continue
        if quote is None and written.startswith("//", k):
            break
        if not ch.isspace():
            out.append(k)
        if quote is not None and ch == "\\":
            k += 2          # (the escaped character, never white space in C text)
            if k - 1 < len(written):
                out.append(k - 1)
            continue
        if ch in "\"'" and quote in (None, ch):
            quote = ch if quote is None else None
        k += 1
    return out


class SourceColumnsParser(c_parser.CParser):
    """pycparser's parser giving the columns of the file as written (see column_maps)."""

    def __init__(self, maps):
        super().__init__()
        self.column_maps = maps

    def _written(self, coord):
        columns = self.column_maps.get((coord.file, coord.line))
        if columns and coord.column in columns:
            return type(coord)(coord.file, coord.line, columns[coord.column])
        return coord

    def _tok_coord(self, tok):          # (pycparser 3)
        return self._written(super()._tok_coord(tok))

    def _coord(self, lineno, column=None):      # (pycparser 2)
        return self._written(super()._coord(lineno, column))
