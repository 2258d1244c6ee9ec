"""The `adgen` command."""
import argparse
import os
import shlex
import sys

from adgen import progress
from adgen.room import with_room
from adgen.errors import AdgenError, UsageError, report
from adgen.version import __version__

USAGE = """adgen --reverse|--forward [--vector] FILE... [--head SPEC]... [-I DIR] [-D NAME[=VALUE]]
             [--inactive NAME]... [--size NAME=EXPR]... [--stack heap|static]
             [--stack-size BYTES] [--stack-report] [--rules FILE]... [--explain]
             [--store-all] [--split NAME]... [--joint NAME]... [-o OUT.c | -o - | --no-output]
             [-MD] [-MF FILE] [--quiet | --progress]
       adgen check FILE... --head SPEC [--inputs VALUES.json] [--size NAME=N]... (adgen check --help)"""


def docs_dir():
    """Where adgen's documentation is: docs/ of the source checkout the package runs from,
    else what `pip install` put in PREFIX/share/doc/adgen."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for d in (os.path.join(here, "docs"), os.path.join(sys.prefix, "share", "doc", "adgen")):
        if os.path.isfile(os.path.join(d, "cli.md")):
            return d
    return None


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


class _PrintCMakeModule(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        print(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cmake", "adgen.cmake"))
        parser.exit(0)


def build_parser():
    docs = docs_dir()
    p = _Parser(prog="adgen", usage=USAGE,
                description="Source-to-source automatic differentiation of C and Fortran "
                            "into plain C (Tapenade's calling conventions).",
                formatter_class=argparse.RawDescriptionHelpFormatter,     # paths unbroken
                epilog=f"Documentation: {docs}\n(cli.md: this command line; tutorial.md: a "
                       "first derivative in a Makefile and in Python)" if docs else
                       "Documentation: the docs/ folder of adgen's source")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--reverse", "-b", dest="mode", action="store_const", const="reverse",
                      help="adjoint (reverse) mode: f gives f_b (the default)")
    mode.add_argument("--forward", "--tangent", "-d", dest="mode", action="store_const",
                      const="forward", help="tangent (forward) mode: f gives f_d")
    p.add_argument("--vector", action="store_true",
                   help="tangent mode in many directions at once: f gives f_dv, each "
                        "derivative array has a trailing dimension of nbdirs (given at run "
                        "time as f_dv's last argument)")
    p.add_argument("sources", nargs="+", metavar="FILE", help="C (.c) or Fortran sources")
    p.add_argument("--head", action="append", default=[], metavar="SPEC",
                   help='what to differentiate, Tapenade style: "f(y1 y2)/(x1 x2)" '
                        "(dependents, then independents); repeatable")
    p.add_argument("-o", "--output", metavar="OUT.c",
                   help="output file (default: FILE_b.c or FILE_d.c beside the first input); "
                        "- for standard output")
    p.add_argument("--no-output", action="store_true",
                   help="write no file (for --explain and --stack-report)")
    p.add_argument("-MD", dest="depfile_beside", action="store_true",
                   help="also write a make dependency file, OUT.d beside the output: the "
                        "output depends on every file adgen read (sources, headers, rules)")
    p.add_argument("-MF", dest="depfile", metavar="FILE",
                   help="the dependency file's name (implies -MD)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add a directory to the include search path")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a preprocessor macro")
    p.add_argument("--inactive", action="append", default=[], metavar="NAME",
                   help="treat calls to external function NAME as carrying no derivative")
    p.add_argument("--split", action="append", default=[], metavar="NAME",
                   help="reverse mode: run the calls of function NAME in split mode")
    p.add_argument("--joint", action="append", default=[], metavar="NAME",
                   help="reverse mode: run the calls of function NAME in joint mode")
    p.add_argument("--size", action="append", default=[], metavar="NAME=EXPR",
                   help="number of elements of array parameter NAME of a head, as a C "
                        "expression over its parameters")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="derivative rules: functions whose derivative routines you supply "
                        "(see docs/rules.md); repeatable")
    p.add_argument("--stack", choices=("heap", "static"), default="heap",
                   help="where the adjoint keeps the values it restores: a heap stack grown "
                        "as needed (the default) or a static buffer, no heap at all (see "
                        "docs/static-stack.md)")
    p.add_argument("--stack-size", metavar="BYTES",
                   help="bytes of the static stack (default: derived from the program when "
                        "its loop bounds are known at generation time)")
    p.add_argument("--stack-report", action="store_true",
                   help="print, per head, the bytes its adjoint pushes per call as a formula")
    p.add_argument("--explain", action="store_true",
                   help="reverse mode: print, for each value the forward sweep overwrites, "
                        "whether the adjoint stores it, undoes the change or needs nothing, "
                        "and each call's mode (joint or split), and why, with its source line")
    p.add_argument("--store-all", action="store_true",
                   help="reverse mode: store every value the forward sweep overwrites (no "
                        "to-be-recorded analysis, nothing undone): a baseline to measure "
                        "against")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--quiet", "-q", action="store_true",
                       help="show no progress (by default a run longer than two seconds "
                            "shows its stage and function on standard error, when that is "
                            "a terminal)")
    shown.add_argument("--progress", action="store_true",
                       help="show the progress of a run longer than two seconds on "
                            "standard error even when that is not a terminal (a line a "
                            "second)")
    p.add_argument("--print-cmake-module", action=_PrintCMakeModule, nargs=0,
                   help="print the path of adgen.cmake, which defines the CMake function "
                        "adgen_add_derivative (see docs/tutorial.md), and exit")
    p.add_argument("--version", action="version", version=f"adgen {__version__}")
    return p


def main(argv=None):
    """The command line; run with room for deep recursion (long call chains, deeply
    nested expressions), which the parser and the analyses follow recursively."""
    return with_room(_main, argv)


def dependency_rule(target, inputs):
    """A make rule `TARGET: INPUT...` (as gcc -MD writes one), each input also a target of
    its own with no recipe, so that a header since removed does not stop make."""
    def esc(path):
        return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")
    deps = " \\\n ".join(esc(p) for p in inputs)
    return f"{esc(target)}: {deps}\n" + "".join(f"\n{esc(p)}:\n" for p in inputs[1:])


def _main(argv):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "check":     # `adgen check ...`: see docs/check.md
        from adgen.check import main as check_main
        return check_main(argv[1:])
    try:
        args = build_parser().parse_args(argv)
    except UsageError as exc:
        print(f"usage: {USAGE}\nadgen: error: {exc}", file=sys.stderr)
        return 2
    from adgen.driver import Options, default_output, generate, write_output
    sizes = {}
    for item in args.size:
        if "=" not in item:
            print(f"adgen: error: --size expects NAME=EXPR, got '{item}'", file=sys.stderr)
            return 2
        k, v = item.split("=", 1)
        sizes[k.strip()] = v
    mode = args.mode or ("forward" if args.vector else "reverse")
    if args.stack_size is not None and not args.stack_size.isdigit():
        print(f"usage: {USAGE}\nadgen: error: --stack-size expects a number of bytes",
              file=sys.stderr)
        return 2
    if args.vector and mode != "forward":
        print(f"usage: {USAGE}\nadgen: error: --vector goes with --forward", file=sys.stderr)
        return 2
    opts = Options(mode=mode, vector=args.vector, heads=args.head,
                   include_dirs=args.include_dirs, defines=args.defines,
                   inactive=args.inactive, sizes=sizes, stack=args.stack, rules=args.rules,
                   stack_size=args.stack_size or "", stack_report=args.stack_report,
                   explain=args.explain, store_all=args.store_all,
                   split_calls=args.split, joint_calls=args.joint,
                   command="adgen " + " ".join(shlex.quote(a) for a in argv))
    out = args.output or default_output(args.sources[0], "vector" if opts.vector else opts.mode)
    if args.no_output and args.output:
        print(f"usage: {USAGE}\nadgen: error: --no-output and -o exclude each other",
              file=sys.stderr)
        return 2
    depfile = args.depfile or (os.path.splitext(out)[0] + ".d" if args.depfile_beside
                               else None)
    if depfile is not None and (out == "-" or args.no_output) and args.depfile is None:
        print(f"usage: {USAGE}\nadgen: error: -MD with no output file needs -MF FILE",
              file=sys.stderr)
        return 2
    try:
        opts.output_stem = "adgen" if out == "-" else \
            os.path.basename(out[:-2] if out.endswith(".c") else out)
        if not args.quiet:
            progress.start(force=args.progress)
        try:
            result = generate(args.sources, opts)
        finally:
            progress.stop()
        if result.header is not None and out == "-":
            raise AdgenError("-o - cannot hold the C header and the Fortran interface "
                             "module that go with the output of Fortran input: give a file "
                             "name", None)
        for w in result.warnings:
            print(w, file=sys.stderr)
        for line in result.notes:
            # beside C on standard output, the notes go to standard error
            print(line, file=sys.stderr if out == "-" else sys.stdout)
        inputs = result.files_read
        if not args.no_output:
            write_output(result.text, out, inputs)
            if result.header is not None:
                stem = out[:-2] if out.endswith(".c") else out
                write_output(result.header, stem + ".h", inputs)
                write_output(result.interface, stem + "_interface.f90", inputs)
        if depfile is not None:
            write_output(dependency_rule(out if not args.no_output else depfile, inputs),
                         depfile, inputs)
    except AdgenError as exc:
        print(report(exc, args.sources[0]), file=sys.stderr)
        return 1
    except RecursionError:
        print(f"{args.sources[0]}: error: program too deeply nested for adgen",
              file=sys.stderr)
        return 1
    except Exception as exc:  # a bug in adgen: report it as an error, never a traceback
        print(f"{args.sources[0]}: error: internal error in adgen "
              f"({type(exc).__name__}: {exc}); please report this input", file=sys.stderr)
        if "ADGEN_DEBUG" in __import__("os").environ:
            raise
        return 1
    return 0
