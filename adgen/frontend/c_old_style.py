"""Old-style (K&R) function definitions read as the prototyped definitions they equal.

`double horner(c, n, x) double *c; int n; double x; { ... }`, as pre-ANSI numerical code
(and code converted from it) defines its functions, is the definition
`double horner(double *c, int n, double x) { ... }`: each name of the identifier list gets
the declaration the list of declarations gives it, in the identifier list's order, and a
name that list leaves out is an `int` (C89's implicit int). The values a call passes are
the same either way: a caller of an unprototyped function promotes a `float` argument to
`double`, and the definition converts it back to the `float` it declares, as the
prototyped one converts its argument.
"""
import copy

from pycparser import c_ast

from adgen.errors import AdgenError


def prototype_old_style(ast, loc_of):
    """Rewrites, in place, every old-style function definition of the file's AST `ast`
    into the prototyped one it equals (loc_of(node): where a node is, for an error)."""
    for ext in ast.ext:
        if isinstance(ext, c_ast.FuncDef) and ext.param_decls:
            _prototype(ext, loc_of)


def _prototype(fd, loc_of):
    fdecl = fd.decl.type
    while not isinstance(fdecl, c_ast.FuncDecl):    # a function returning a pointer
        fdecl = fdecl.type
    names = fdecl.args.params if fdecl.args is not None else []
    declared = {}
    for d in fd.param_decls:
        loc = loc_of(d)
        listed = [p.name for p in names if isinstance(p, c_ast.ID)]
        if not isinstance(d, c_ast.Decl) or d.name not in listed:
            raise AdgenError(f"'{getattr(d, 'name', '?')}' is declared as a parameter of "
                             f"'{fd.decl.name}' but is not in its parameter list", loc)
        if d.init is not None or d.name in declared:
            raise AdgenError(f"parameter '{d.name}' of '{fd.decl.name}' is declared twice "
                             "or initialized", loc)
        declared[d.name] = d
    params = []
    for p in names:
        if not isinstance(p, c_ast.ID):     # an identifier list holds identifiers only
            raise AdgenError(f"the parameter list of '{fd.decl.name}' mixes names and "
                             "declarations", loc_of(p))
        d = declared.get(p.name)
        if d is None:       # implicit int
            d = c_ast.Decl(p.name, [], None, [], [],
                           c_ast.TypeDecl(p.name, [], None,
                                          c_ast.IdentifierType(["int"], p.coord), p.coord),
                           None, None, p.coord)
        else:
            d = copy.copy(d)
            d.storage = [s for s in d.storage if s != "register"]
        params.append(d)
    fdecl.args = c_ast.ParamList(params, fdecl.args.coord if fdecl.args else fd.coord) \
        if params else None
    fd.param_decls = None

