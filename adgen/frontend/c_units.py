"""C files read together: their programs merged into one, as the linker joins their
objects.

Each file is its own translation unit, and a name declared `static` at file scope is its
file's own. Merged into one program, a static of one file and a global or function of the
same name in another would become one: each such static (a variable or a function) is
renamed in its own file first, after the file (`s` of model.c is `s_model`). Then the
definitions are joined: one function per name, one symbol per global, whichever file
mentions it.
"""
import os
import re

from adgen import ir
from adgen.errors import AdgenError


def merge_c_files(programs):
    """One program of the programs of several C files (the one itself for one file)."""
    if len(programs) == 1:
        ir.free_static_local_names(programs[0])
        return programs[0]
    _statics_apart(programs)
    funcs, globals_, types, std, pragmas = {}, {}, [], [], []
    for p in programs:
        for name, f in p.functions.items():
            old = funcs.get(name)
            if old is not None and old.has_body and f.has_body and \
                    not getattr(f, "is_library", False):
                raise AdgenError(f"function '{name}' is defined twice (first at {old.loc})",
                                 f.loc)
            if old is None or (f.has_body and not old.has_body):
                funcs[name] = f
        for g in p.globals:
            old = globals_.get(g.name)
            if old is None or (old.is_extern and not g.is_extern):
                globals_[g.name] = g
        for t in p.type_text:
            if t not in types:
                types.append(t)
        for h in p.std_headers:
            if h not in std:
                std.append(h)
        pragmas += p.pragmas
    prog = ir.Program(funcs, list(globals_.values()), types, std, pragmas,
                      programs[0].language)
    prog.type_names = set().union(*(getattr(p, "type_names", ()) for p in programs))
    # one symbol per global, whichever file mentions it
    canon = {g.name: g for g in prog.globals}
    for f in funcs.values():
        for s in ir.stmts_walk(f.body.stmts):
            for e in ir.stmt_exprs(s):
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Ref) and sub.sym.kind == "global" and \
                            sub.sym.name in canon:
                        sub.sym = canon[sub.sym.name]
    ir.free_static_local_names(prog)
    return prog


def _statics_apart(programs):
    """Renames each file-scope static, variable or function, whose name another file
    also uses, in its own file: `s` of model.c is `s_model` (a variable's references share
    its symbol; a function's calls and uses as a value are renamed with it). Static
    constants of one type and value (a header's `static const double K = 3.0;` in two
    files) are the same value either way and stay as they are."""
    owners = {}
    for i, p in enumerate(programs):
        for name in list(p.functions) + [g.name for g in p.globals]:
            owners.setdefault(name, set()).add(i)
    taken = set(owners)
    for i, p in enumerate(programs):
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(_path(p)))[0])

        def fresh(name):
            new, k = f"{name}_{stem}", 2
            while new in taken:
                new, k = f"{name}_{stem}{k}", k + 1
            taken.add(new)
            return new

        for g in p.globals:
            if g.is_static and owners[g.name] != {i} and not _same_constant(programs, g):
                _not_in_initializers(p, g.name)
                g.written_name = g.name         # (what messages call it)
                g.name = fresh(g.name)
        for f in list(p.functions.values()):
            if f.is_static and f.has_body and owners[f.name] != {i}:
                _not_in_initializers(p, f.name)
                _rename_function(p, f, fresh(f.name))


def _path(p):
    """The C file a program was read from."""
    files = getattr(p, "files_read", None) or []
    return files[0] if files else "file"


def _same_constant(programs, g):
    """Whether every global of g's name, in every file, is a static constant of g's type
    and initializer."""
    same = [h for p in programs for h in p.globals if h.name == g.name]
    return all(h.is_static and h.type.const and h.type == g.type and
               h.init_text == g.init_text for h in same)


def _not_in_initializers(p, name):
    """Refuses a file's static that an initializer names (C text, not renamed with it)."""
    for other in p.globals:
        if other.init_text and re.search(rf"\b{re.escape(name)}\b", other.init_text):
            raise AdgenError(f"the static '{name}' is its file's own, and another file has "
                             f"a '{name}' too; the initializer of '{other.name}' names it: "
                             "rename one of them", other.loc)


def _rename_function(p, f, new):
    """Function f of program p named new: its calls and its uses as a value in p too."""
    old = f.name
    del p.functions[old]
    f.written_name = old
    f.name = new
    p.functions[new] = f
    for g in p.functions.values():
        for st in ir.stmts_walk(g.body.stmts):
            for e in ir.stmt_exprs(st):
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call) and sub.func == old:
                        sub.func = new
                    elif isinstance(sub, ir.Const) and sub.text == old and \
                            isinstance(sub.type.resolved(), ir.FuncPtr):
                        sub.text = new
