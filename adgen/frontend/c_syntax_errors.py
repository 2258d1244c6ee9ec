"""Syntax errors of C sources placed as gcc places them: pycparser's messages read for
their file, line and column, and where pycparser gives none, gcc asked."""
import re
import subprocess

from adgen.errors import AdgenError, Loc
from adgen.frontend.preprocess import as_path_argument, gcc_flags


def compiler_syntax_error(path, include_dirs, defines):
    """The parser gave no position: ask gcc where the syntax error is."""
    cmd = ["gcc", "-fsyntax-only", *gcc_flags(include_dirs, defines), as_path_argument(path)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:
        return None
    for line in proc.stderr.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", line)
        if m:
            where = path if m.group(1) == as_path_argument(path) else m.group(1)
            return AdgenError(f"syntax error: {m.group(4)}",
                              Loc(where, int(m.group(2)), int(m.group(3))))
    return None


def parse_error(msg, path):
    """The error pycparser raised (msg), placed at its file, line and column."""
    msg = str(msg)
    # pycparser 3 may say "FILE: MESSAGE" with the position in the message, or
    # "FILE:LINE:COL: MESSAGE"
    m = re.match(r"^(.*?):(\d+):(\d+):\s*(.*)$", msg, re.S)
    if m:
        text = m.group(4).strip()
        if text.startswith("before"):
            text = "syntax error " + text
        return AdgenError(text, Loc(m.group(1), int(m.group(2)), int(m.group(3))))
    return _parse_error_plain(msg, path)


def _parse_error_plain(msg, path):
    # pycparser: "file:line:col: before: X" or "file:line:col: message"
    parts = msg.split(":", 3)
    if len(parts) >= 4 and parts[1].strip().isdigit():
        line, col = int(parts[1]), int(parts[2]) if parts[2].strip().isdigit() else 1
        rest = parts[3].strip()
        if rest.startswith("before"):
            rest = "syntax error " + rest
        return AdgenError(rest, Loc(parts[0], line, col))
    return AdgenError(f"syntax error: {msg}", Loc(path))
