"""User-facing diagnostics: every problem adgen reports is an AdgenError."""
import linecache
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Loc:
    """A place in the user's source: file, line and column (1-based)."""
    file: str
    line: int = 0
    col: int = 0

    def __str__(self):
        if self.line:
            return f"{self.file}:{self.line}:{self.col or 1}"
        return self.file

    def about(self, message: str) -> "Loc":
        """The place of an error with this message: this one. (A place that knows only the
        statement, not the column, narrows itself to what the message names:
        fortran_places.StatementLoc.)"""
        return self


class AdgenError(Exception):
    """An input adgen refuses. Printed as `FILE:LINE:COL: error: MESSAGE`."""

    def __init__(self, message: str, loc: Optional[Loc] = None):
        super().__init__(message)
        self.message = message
        self.loc = loc

    @property
    def loc(self) -> Optional[Loc]:
        return self._loc

    @loc.setter
    def loc(self, loc: Optional[Loc]):
        # placed when made or moved, while its file is still there to be read
        self._loc = loc.about(self.message) if loc is not None else None

    def __str__(self):
        where = f"{self.loc}: " if self.loc else ""
        return f"{where}error: {self.message}"


class MissingSize(AdgenError):
    """An array whose length adgen cannot tell: `--size NAME=EXPR` gives it. The driver
    goes on with a stand-in length to find the others, and reports them all at once
    (`also`: the errors after the first)."""

    def __init__(self, message: str, loc: Optional[Loc], name: str):
        super().__init__(message, loc)
        self.name = name
        self.also = []


def source_excerpt(loc: Optional[Loc]) -> str:
    """The source line of loc and a caret under its column, as gcc shows them after the
    message ("" when the line cannot be read: text given to the Python API, a file since
    gone). Tabs are expanded, in the line and before the caret alike."""
    if loc is None or not loc.line or not loc.file:
        return ""
    try:
        text = linecache.getline(loc.file, loc.line)
    except (OSError, UnicodeError, ValueError):
        return ""
    text = text.rstrip("\r\n")
    if not text.strip():
        return ""
    # a column in the indentation (a place known by its line only) is the line's first
    # character
    col = min(max(loc.col, len(text) - len(text.lstrip()) + 1), len(text) + 1)
    gutter = f"{loc.line:5} | "
    before = text[:col - 1].expandtabs(8)
    return f"{gutter}{text.expandtabs(8)}\n{' ' * (len(gutter) - 2)}| {' ' * len(before)}^"


def report(exc: "AdgenError", fallback: str) -> str:
    """The text of an error for standard error: `FILE:LINE:COL: error: MESSAGE` (the file
    `fallback` names when the error has no place), then the line it is about with a caret
    under the column."""
    if exc.loc is None:
        text = f"{fallback}: {exc}"
    else:
        excerpt = source_excerpt(exc.loc)
        text = f"{exc}\n{excerpt}" if excerpt else str(exc)
    return "\n".join([text] + [report(e, fallback) for e in getattr(exc, "also", ())])


def warning_text(loc: Optional[Loc], message: str) -> str:
    """The line of a warning: `FILE:LINE:COL: warning: MESSAGE`, at the place an error with
    that message would be (the column of the name it quotes, in a Fortran statement)."""
    if loc is None:
        return f"warning: {message}"
    return f"{loc.about(message)}: warning: {message}"


class UsageError(Exception):
    """Bad command-line usage (exit status 2)."""
