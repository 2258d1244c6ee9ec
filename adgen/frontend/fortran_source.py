"""Reading Fortran source into fparser's parse tree: the preprocessor for the suffixes that
ask for it, fixed form as gfortran reads it, fparser's errors put at a line (gfortran asked
where, when fparser cannot tell)."""
import contextlib
import os
import re
import subprocess

from adgen.errors import AdgenError, Loc
from adgen.frontend import fortran_types as T
from adgen.frontend.fortran_places import CPP_SUFFIXES, free_form, line_loc, statement_loc
from adgen.frontend.fortran_separate import mark_bodies, rewrite_bodies


def _fortran_2008_intrinsics():
    """fparser reads Fortran 2003, whose ATAN takes one argument; Fortran 2008's takes
    two as well (`atan(y, x)`, atan2's value), as gfortran reads it."""
    from fparser.two import Fortran2003
    for table in ("generic_function_names", "mathematical_names"):
        entry = getattr(Fortran2003.Intrinsic_Name, table, {}).get("ATAN")
        if entry is not None:
            entry["max"] = max(entry["max"], 2)


def read_tree(path, include_dirs=(), defines=()):
    """Parse a Fortran file (preprocessed first when its suffix asks for it)."""
    try:
        from fparser.common.readfortran import FortranFileReader, FortranStringReader
        from fparser.two.parser import ParserFactory
        from fparser.two.utils import FortranSyntaxError
    except ImportError:
        raise AdgenError("Fortran input needs the fparser package (pip install fparser)",
                         Loc(path))
    _fortran_2008_intrinsics()
    text = None
    if path.endswith(CPP_SUFFIXES):
        cmd = ["gcc", "-E", "-traditional-cpp", "-x", "c"]
        cmd += [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]
        from adgen.frontend.preprocess import as_path_argument
        proc = subprocess.run(cmd + [as_path_argument(path)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise AdgenError(f"preprocessing failed: {proc.stderr.strip()[:200]}", Loc(path))
        text = _on_source_lines(proc.stdout, path)
    free = free_form(path)
    if text is None and not free:
        text = _read_source(path)
    if text is not None and not free:
        text = _fixed_form_statements(text)
    # (`module procedure f` bodies, which fparser does not read: fortran_separate)
    rewritten, separate_heads = rewrite_bodies(_read_source(path) if text is None else text)
    if separate_heads:
        text = rewritten
    # an INCLUDE line's file is looked for beside the source, then in the -I directories,
    # as gfortran does (not in the current directory)
    include = [os.path.dirname(path)] + list(include_dirs)   # ("": the source is here)
    reader = None
    try:
        if text is None:
            reader = FortranFileReader(path, ignore_comments=False, include_dirs=include)
        else:
            reader = FortranStringReader(text, ignore_comments=False, include_dirs=include)
            reader.set_format(_format(free))
        parser = ParserFactory().create(std="f2008")
        with _fparser_errors(path, reader):
            tree = parser(reader)
    except FortranSyntaxError as exc:
        m = re.search(r"line #?(\d+)", str(exc))
        line = int(m.group(1)) if m else 0
        msg = str(exc).strip().splitlines()[-1] if str(exc).strip() else "syntax error"
        included = _included_reader(reader)
        if included is not None:
            # (fparser names the INCLUDE line of the file that includes the one it was
            # reading: the error is at the line that file's reader stopped at)
            path, line = included.id, included.linecount
            if msg.startswith(">>>") and 0 < line <= len(included.source_lines):
                msg = ">>>" + included.source_lines[line - 1]
        raise AdgenError(f"Fortran syntax error: {msg}", line_loc(path, line))
    except AdgenError:
        raise
    except Exception as exc:  # fparser raises assorted errors on malformed input
        # (where gfortran finds nothing wrong, the statement fparser was reading: a
        # variable named as a keyword, `real = ...`, fails inside fparser)
        included = _included_reader(reader) if reader is not None else None
        at = included if included is not None else reader
        line = getattr(at, "linecount", 0) or 0
        raise _gfortran_syntax_error(path, include_dirs, defines) or \
            AdgenError(f"cannot parse Fortran (fparser: {type(exc).__name__}: {exc})",
                       line_loc(at.id if included is not None else path, line)
                       if line > 0 else Loc(path))
    if tree is None:
        raise AdgenError("empty or unparsable Fortran source", Loc(path))
    # (fparser keeps an INCLUDE line whose file it does not find, and reads on)
    from fparser.two.Fortran2003 import Include_Stmt
    from fparser.two.utils import walk
    missing = next(iter(walk(tree, Include_Stmt)), None)
    if missing is not None and str(missing.items[0]).lower() == "mpif.h":
        raise AdgenError("MPI in Fortran (INCLUDE 'mpif.h') is not supported by adgen yet; "
                         "C programs calling MPI are (docs/mpi.md)",
                         statement_loc(path, missing))
    if missing is not None:
        raise AdgenError(f"INCLUDE '{missing.items[0]}': no such file beside the source or "
                         "in the -I directories", statement_loc(path, missing))
    if separate_heads:
        mark_bodies(tree, separate_heads, path)
    T.replace_data_refs(tree)
    return tree


def _gfortran_syntax_error(path, include_dirs, defines):
    """fparser failed with no position: ask gfortran (when there is one) where the first
    error is; None when it cannot tell (a missing module file is not a syntax error)."""
    import shutil
    import tempfile
    if shutil.which("gfortran") is None:
        return None
    cmd = ["gfortran", "-fsyntax-only"] + (["-cpp"] if path.endswith(CPP_SUFFIXES) else [])
    cmd += [f"-I{d}" for d in include_dirs] + [f"-D{d}" for d in defines]
    with tempfile.TemporaryDirectory() as scratch:      # (for the .mod files it writes)
        try:
            proc = subprocess.run(cmd + ["-J", scratch, os.path.abspath(path)],
                                  capture_output=True, text=True, errors="replace",
                                  cwd=scratch, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
    # gfortran: "FILE:LINE:COL:", the line quoted, then "Error: MESSAGE"
    where = None
    for line in proc.stderr.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+):$", line)
        if m:
            where = Loc(_gfortran_file(m.group(1), path, include_dirs),
                        int(m.group(2)), int(m.group(3)))
        elif line.startswith("Error: ") and where is not None:
            why = re.sub(r"\s*at \(\d\)", "", line[7:])  # (gfortran's marks under the line)
            return AdgenError(f"syntax error: {why}", where)
    return None


def _gfortran_file(name, path, include_dirs):
    """The file gfortran names in a message about the source path it was given whole: the
    source, or a file it INCLUDEs, named as its INCLUDE line names it and found where
    gfortran found it (beside the source, then in the -I directories)."""
    if os.path.isabs(name) and os.path.abspath(path) == name:
        return path
    for d in [os.path.dirname(path)] + list(include_dirs):
        if os.path.isfile(os.path.join(d, name)):
            return os.path.join(d, name)
    return name


def _included_reader(reader):
    """The reader of the INCLUDEd file that reader was reading when it stopped (the
    innermost one, when that file INCLUDEs another); None when it was reading its own
    file."""
    included = None
    while getattr(reader, "reader", None) is not None:
        reader = included = reader.reader
    return included


@contextlib.contextmanager
def _fparser_errors(path, reader):
    """fparser reports some syntax errors (a mismatched END name, say) by logging them and
    calling sys.exit: those become an error at the line the log names, in the file reader
    was reading (an INCLUDEd one, perhaps)."""
    import logging
    messages = []

    class Keep(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    log = logging.getLogger("fparser.common.readfortran")
    keep = Keep(logging.ERROR)
    log.addHandler(keep)
    try:
        yield
    except SystemExit:
        text = messages[-1] if messages else ""
        # (the log quotes the lines around the error, the last one `  13:... <== why`)
        m = re.search(r"^\s*(\d+):.*<==\s*(.*)$", text, re.M)
        line, why = (int(m.group(1)), m.group(2)) if m else (0, "syntax error")
        why = re.sub(r"\s*Ignoring\.$", "", why.strip())
        included = _included_reader(reader)
        raise AdgenError(f"Fortran syntax error: {why}",
                         line_loc(path if included is None else included.id, line))
    finally:
        log.removeHandler(keep)


def _on_source_lines(text, path):
    """The preprocessor's output with its line markers (`# 12 "model.F90"`) followed: each
    line of the file itself back on its own line number, so that messages name it (lines
    from included files stay where they come, and may shift the lines after them)."""
    out, main = [], True
    for line in text.splitlines():
        m = re.match(r'#\s*(\d+)\s+"(.*?)"', line)
        if m:
            main = os.path.abspath(m.group(2)) == os.path.abspath(path)
            if main:
                out += [""] * max(0, int(m.group(1)) - 1 - len(out))
            continue
        if main or line.strip():
            out.append(line)
    return "\n".join(out) + "\n"


def _format(free):
    from fparser.common.sourceinfo import FortranFormat
    return FortranFormat(free, False)


def _read_source(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError as exc:
        raise AdgenError(f"cannot read: {exc.strerror}", Loc(path))


def _fixed_form_statements(text):
    """Fixed-form source as the standard (and gfortran by default) reads it: the columns
    after 72 are ignored (a card's sequence number), and a 0 in column 6 marks an initial
    line, as a blank does. Comment lines and lines in tab format are left as they are."""
    out = []
    for line in text.splitlines():
        first = len(line) - len(line.lstrip())
        comment = not line.strip() or line[0] in "cC*!" or \
            line.lstrip().startswith("!") and first != 5
        if not comment and "\t" not in line[:6]:
            line = line[:72]
            if len(line) >= 6 and line[5] == "0":
                line = line[:5] + " " + line[6:]
        out.append(line)
    return "\n".join(out) + "\n"
