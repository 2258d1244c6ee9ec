"""User-facing diagnostics: every problem adgen reports is an AdgenError."""
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


class AdgenError(Exception):
    """An input adgen refuses. Printed as `FILE:LINE:COL: error: MESSAGE`."""

    def __init__(self, message: str, loc: Optional[Loc] = None):
        super().__init__(message)
        self.message = message
        self.loc = loc

    def __str__(self):
        where = f"{self.loc}: " if self.loc else ""
        return f"{where}error: {self.message}"


class UsageError(Exception):
    """Bad command-line usage (exit status 2)."""
