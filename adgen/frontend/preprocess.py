"""Run the C preprocessor over a user's file.

pycparser reads preprocessed C99 only, and glibc's headers are full of GNU extensions, so
the standard headers are replaced by adgen's own small set (adgen/include/) that declares
the same functions and keeps the real values of constants such as M_PI and DBL_MAX.
The user's own headers, -I and -D are used as they are.
"""
import os
import re
import subprocess
from pathlib import Path

from adgen.errors import AdgenError, Loc

INCLUDE_DIR = Path(__file__).resolve().parent.parent / "include"

# headers of adgen's include directory that are no standard C headers: the output does not
# include them (it defines the types and declares the functions it uses of them itself)
NOT_STANDARD = ("cblas.h", "f2c.h")

_LINEMARK = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')


def _marked_file(m):
    return re.sub(r"\\(.)", r"\1", m.group(2))


def linemark(line):
    """(file, line number) of a line marker of the preprocessor's output (`# 12 "m.c" 2`:
    the next line is line 12 of m.c), or None for another line."""
    m = _LINEMARK.match(line)
    return None if m is None else (_marked_file(m), int(m.group(1)))


_DEFINE = re.compile(r"^#\s*define\s+([A-Za-z_]\w*)(?!\()\s*(.*)$")
_UNDEF = re.compile(r"^#\s*undef\s+([A-Za-z_]\w*)")


def gcc_flags(include_dirs=(), defines=()):
    """The flags gcc reads a C input with for adgen: C99, adgen's own standard headers,
    __adgen__ defined."""
    flags = ["-std=c99", "-undef", "-nostdinc", "-isystem", str(INCLUDE_DIR), "-D__adgen__=1"]
    # gcc's spellings of C99 keywords, and attributes, which change nothing here
    flags += ["-D__inline__=inline", "-D__inline=inline", "-D__restrict__=restrict",
              "-D__restrict=restrict", "-D__attribute__(x)=", "-D__extension__=",
              "-D__const=const", "-D__signed__=signed", "-D__volatile__=volatile"]
    for d in include_dirs:
        flags += ["-I", d]
    for d in defines:
        flags += ["-D", d]
    return flags


def as_path_argument(path: str) -> str:
    """path as a compiler reads it as a file, never as an option: `@opts.c` is a response
    file to gcc and `-x.c` an option, so such names get a `./` in front."""
    return "./" + path if path.startswith(("@", "-")) else path


def preprocess(path: str, include_dirs=(), defines=()):
    """Return (text, std_headers, macros, files): the preprocessed text, the standard headers
    used, the object-like macros defined at the end ({name: replacement text}), and the
    program's own files read (the source and the headers it includes)."""
    arg = as_path_argument(path)
    cmd = ["gcc", "-E", "-dD", *gcc_flags(include_dirs, defines), arg]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    except OSError as exc:
        raise AdgenError(f"cannot run the C preprocessor (gcc): {exc}", Loc(path))
    if proc.returncode != 0:
        raise AdgenError(_first_cpp_error(proc.stderr, path), None)
    std, macros, files, lines = [], {}, [], proc.stdout.splitlines()
    for k, line in enumerate(lines):
        m = _LINEMARK.match(line)
        if m:
            f = _marked_file(m)
            if f == arg != path:        # the input's own lines under its own name
                f = path
                lines[k] = line[:m.start(2)] + path.replace("\\", "\\\\").replace(
                    '"', '\\"') + line[m.end(2):]
            if is_system_file(f):
                # <stdio.h>, <sys/time.h>: the header the output includes in its place
                name = os.path.relpath(os.path.abspath(f), INCLUDE_DIR)
                if name not in std and name not in NOT_STANDARD:
                    std.append(name)
            elif not f.startswith("<") and f not in files:
                files.append(f)     # not <built-in> or <command-line>
        elif line.startswith("#"):
            # the directives -dD keeps (the macros, for --size): empty lines in the text,
            # so that the lines after them keep their numbers
            d, u = _DEFINE.match(line), _UNDEF.match(line)
            if d:
                macros[d.group(1)] = d.group(2).strip()
            elif u:
                macros.pop(u.group(1), None)
            if d or u or re.match(r"^#\s*define\s", line):
                lines[k] = ""
    return "\n".join(lines) + "\n", std, macros, files


def _first_cpp_error(stderr: str, path: str) -> str:
    """gcc already says FILE:LINE:COL: error: ...; keep its first error without the prefix."""
    for line in stderr.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$", line)
        if m:
            message = m.group(4)
            header = re.match(r"^(complex|tgmath)\.h: No such file or directory$", message)
            if header:
                message = (f"complex numbers (<{header.group(1)}.h>) are not supported: "
                           "adgen differentiates real arithmetic")
            where = path if m.group(1) == as_path_argument(path) else m.group(1)
            raise AdgenError(message, Loc(where, int(m.group(2)), int(m.group(3))))
    text = stderr.strip().splitlines()
    return f"preprocessing failed: {text[0] if text else 'unknown error'} ({path})"


def is_system_file(fname: str) -> bool:
    """A header of adgen's own set (adgen/include, `sys/` included)."""
    return bool(fname) and os.path.abspath(fname).startswith(str(INCLUDE_DIR) + os.sep)


def defines_output_types(fname: str) -> bool:
    """Whether the types a file defines go into the output: the program's own, and those of
    adgen's headers that the output does not include (NOT_STANDARD: the BLAS's enumerators,
    f2c's integer and doublereal); the standard headers' come from the headers the output
    includes."""
    return not is_system_file(fname) or os.path.basename(fname) in NOT_STANDARD
