"""C front end: preprocessed C (pycparser AST) to the IR.

Besides translating, it lowers what the IR leaves out: compound assignments, ++ and --
(also inside expressions, as statements before or after), declarations with initialisers
(assignments: c_initializers.py), compound literals (locals: compound_literals.py),
static locals (globals) and nested scopes (unique local names).
"""
import copy
import functools
import re

from pycparser import c_ast, c_parser

from adgen import ir
from adgen.errors import AdgenError, Loc
from adgen.frontend import function_pointers, jumps, own_output, qsort
from adgen.frontend.directives import check_directive, stated_size
from adgen.frontend.f2c_strings import F2C_STRING_CALLS, f2c_string_call
from adgen.frontend.file_scope import file_scope_names, file_scope_sets
from adgen.frontend.jump_flow import set_before_read
from adgen.frontend.realloc import lower_realloc
from adgen.frontend.c_columns import SourceColumnsParser, column_maps
from adgen.frontend.c_old_style import prototype_old_style
from adgen.frontend.counted_whiles import count_whiles
from adgen.frontend.preprocess import defines_output_types, is_system_file, preprocess
from adgen.frontend.openmp_regions import exclusive_pairs, fused_regions
from adgen.ir.openmp import mark_exclusive
from adgen.frontend.c_syntax_errors import compiler_syntax_error, parse_error
from adgen.frontend.compound_literals import lower_compound_literal
from adgen.frontend.c_initializers import InitializersMixin
from adgen.frontend.c_type_text import OutputTypeGenerator
from adgen.frontend.c_strings import is_string, string_array_length
from adgen.ir import exprs as X, reader
from adgen.rules import (F2C_CALLS, F2C_INTEGER, F2C_READS, F2C_WRITES, LIBRARY_FUNCTIONS,
                         through_pointer)

_ASSIGN_OPS = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "<<=": "<<",
               ">>=": ">>", "&=": "&", "|=": "|", "^=": "^"}
_CONSTANT_MACROS = {"INFINITY": ir.FLOAT, "NAN": ir.FLOAT, "HUGE_VAL": ir.DOUBLE,
                    "HUGE_VALF": ir.FLOAT}


def loc_of(node, default=None):
    c = getattr(node, "coord", None)
    if c is None or not getattr(c, "file", None):
        # a few nodes carry no position (a compound literal, a designated initializer):
        # that of the first node inside them that has one
        for child in (node.children() if isinstance(node, c_ast.Node) else ()):
            loc = loc_of(child[1])
            if loc is not None:
                return loc
        return default
    return Loc(c.file, c.line or 0, c.column or 0)


def _tags_only(td):
    """A copy of typedef td in which a struct or union defined with a tag is named by its
    tag only (its definition is given on its own: CFront.tagged_definition)."""
    td = copy.deepcopy(td)
    node, parent = td.type, td
    while node is not None:
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            if node.name and node.decls is not None:
                parent.type = type(node)(node.name, None, node.coord)
            break
        parent, node = node, getattr(node, "type", None)
    return td


def _runtime_sized(t):
    """True when type t is, or holds, an array whose length is not a constant."""
    t = t.resolved()
    while isinstance(t, (ir.Arr, ir.Ptr)):
        if isinstance(t, ir.Arr) and (t.size is None or X.int_value(t.size) is None):
            return True
        t = (t.elem if isinstance(t, ir.Arr) else t.target).resolved()
    return False


def parse_c_file(path, include_dirs=(), defines=(), inactive=()):
    """Preprocess and parse one C file into an ir.Program. `inactive`: the functions the
    user says carry no derivative (--inactive), kept as the calls they are."""
    text, std, macros, files = preprocess(path, include_dirs, defines)
    try:
        ast = SourceColumnsParser(column_maps(text)).parse(text, path)
    except c_parser.ParseError as exc:
        err = parse_error(str(exc), path)
        if err.loc is None or not err.loc.line or "Illegal character" in err.message:
            err = compiler_syntax_error(path, include_dirs, defines) or err
        raise err
    except Exception as exc:  # pycparser raises plain errors for a few malformed inputs
        raise compiler_syntax_error(path, include_dirs, defines) or \
            AdgenError(f"cannot parse: {type(exc).__name__} {exc}".strip(), Loc(path))
    prototype_old_style(ast, loc_of)
    prog = CFront(path, inactive).program(ast)
    prog.std_headers = std
    prog.macros = macros
    prog.files_read = files
    return prog


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.names = {}

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


def _ends_case(stmts):
    """Whether a case's statements end in a jump (so that it does not fall through)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, c_ast.Compound):
        return _ends_case(last.block_items or [])
    return isinstance(last, (c_ast.Break, c_ast.Continue, c_ast.Return))


def _without_final_break(stmts):
    """The statements with the break that ends them removed (also from a final block)."""
    if not stmts:
        return stmts
    last = stmts[-1]
    if isinstance(last, c_ast.Break):
        return stmts[:-1]
    if isinstance(last, c_ast.Compound) and last.block_items:
        inner = _without_final_break(last.block_items)
        if inner is not last.block_items:
            return stmts[:-1] + [c_ast.Compound(inner, last.coord)]
    return stmts


def _no_static_locals(stmts):
    """A case entered by falling through has its statements converted twice: a static
    local there would become two."""
    for s in stmts:
        for node in _c_nodes(s):
            if isinstance(node, c_ast.Decl) and "static" in (node.storage or []):
                raise AdgenError("a static local in a switch case that is entered by "
                                 "falling through is not supported", loc_of(node))


def _outermost_calls(e):
    if isinstance(e, ir.Call):
        return [e]
    return [c for sub in e.children() for c in _outermost_calls(sub)]


def _c_nodes(node):
    yield node
    for _, child in node.children():
        yield from _c_nodes(child)


def _continue_by_flag(block, flag):
    """Replace the continues of `block` that belong to the enclosing loop (not to loops
    inside it) by `flag = 1; break;`."""
    for i, s in enumerate(block.stmts):
        if isinstance(s, ir.Continue):
            one = ir.Const("1", ir.INT, s.loc)
            block.stmts[i] = ir.Block([ir.Assign(ir.Ref(flag, s.loc), one, s.loc),
                                       ir.Break(s.loc)], s.loc)
        elif isinstance(s, ir.Block):
            _continue_by_flag(s, flag)
        elif isinstance(s, ir.If):
            _continue_by_flag(s.then, flag)
            if s.other:
                _continue_by_flag(s.other, flag)


class CFront(InitializersMixin):
    def __init__(self, path, inactive=()):
        self.path = path
        self.inactive = set(inactive)   # calls kept as they are (through_pointer)
        self.typedefs = {}        # name -> ir.Type
        self.structs = {}         # ('struct'|'union', tag) -> StructDef
        self.enum_consts = {}     # name -> int value
        self.functions = {}       # name -> ir.Function
        self.globals = []
        self.global_scope = Scope()
        self.type_text = []
        self.pragmas = []
        self.const_locals = {}     # const int locals with a constant value
        self.anonymous = []        # struct types with no tag: (StructDef, AST node)
        self.defining_variable = False     # reading the type of a file-scope variable
        self.tag_definitions = {}  # ('struct'|'union', tag) -> the text of its definition
        self.sorts = {}            # element type's spelling -> (sort's name, type, loc)
        self.typedef_texts = {}    # typedef name -> its definition, tagged structs by tag
        self.gen = OutputTypeGenerator()
        self.func = None
        # (function, pointer, its function, where) of each use of a fixed pointer
        self.fixed_pointer_calls = []

    # ------------------------------------------------------------------ program
    def program(self, ast):
        # libf2c's intrinsics and I/O routines the program does not define: calls of them
        # only read (but the item of a READ: file_scope.py)
        reading = frozenset(F2C_CALLS) | frozenset(F2C_WRITES) | frozenset(F2C_READS) | \
            frozenset(F2C_INTEGER) | {"s_cmp", "i_len"}
        reading -= {ext.decl.name for ext in ast.ext if isinstance(ext, c_ast.FuncDef)}
        for ext in ast.ext:
            loc = loc_of(ext, Loc(self.path))
            user = not is_system_file(loc.file)
            if own_output.is_runtime(getattr(ext, "name", None) or
                                     getattr(getattr(ext, "decl", None), "name", None)):
                continue    # adgen's runtime, in its own output read again
            if isinstance(ext, c_ast.FuncDef):
                try:
                    self.function_def(ext)
                except AdgenError as exc:
                    # Reported only if the function is differentiated or called by one
                    # that is: the rest of the file (a main, a callback) may use anything.
                    name = ext.decl.name
                    f = ir.Function(name, ir.VOID, [], ir.Block([]), loc=loc)
                    f.is_library = False
                    f.error = exc
                    self.functions[name] = f
                    self.func = None
                # read from the syntax, so also for a function adgen cannot translate
                self.functions[ext.decl.name].file_scope_names = file_scope_names(ext, reading)
            elif isinstance(ext, c_ast.Typedef):
                self.typedefs[ext.name] = self.named_typedef(ext)
                self.typedef_texts.setdefault(ext.name, self.gen.visit(_tags_only(ext)))
                if defines_output_types(loc.file):
                    self.type_text.append(self.gen.visit(ext) + ";")
            elif isinstance(ext, c_ast.Decl):
                self.file_decl(ext, user)
            elif isinstance(ext, c_ast.Pragma):
                self.pragmas.append(ir.Pragma(ext.string, loc))
                check_directive(self.pragmas[-1])
        self.define_sorts()
        self.name_anonymous_structs()
        self.check_fixed_pointers()
        function_pointers.resolve(self)
        prog = ir.Program(self.functions, self.globals, self.type_text, [], self.pragmas)
        prog.type_names = set(self.typedefs)
        return prog

    def check_fixed_pointers(self):
        """A call through a static function pointer is a call of the function it is
        initialized with only if no function of the file sets it or takes its address:
        else the function making that call is in error (reported if it is differentiated)."""
        for caller, sym, target, loc in self.fixed_pointer_calls:
            setters = sorted(name for name, f in self.functions.items()
                             if sym.name in file_scope_sets(f))
            if setters and caller is not None and caller.name in self.functions:
                self.functions[caller.name].error = AdgenError(
                    f"call through the function pointer '{sym.name}', which '{setters[0]}' "
                    f"sets: adgen cannot tell whether it still points to '{target}' when "
                    "the call runs; pass the function as an argument (callbacks are "
                    "supported)", loc)

    def name_anonymous_structs(self):
        """A struct with no tag that a variable (not a typedef) uses: the output needs a
        name to declare its copy or shadow, so it gets one, with its definition."""
        typedefd = {id(t.target.sdef) for t in self.typedefs.values()
                    if isinstance(t, ir.Named) and isinstance(t.target, ir.Struct)}
        for k, (sdef, node) in enumerate(self.anonymous):
            if id(sdef) in typedefd or not sdef.fields:
                continue
            sdef.tag = f"adgen_anon{k + 1}"
            if not is_system_file(getattr(getattr(node, "coord", None), "file", "") or ""):
                named = c_ast.Struct(sdef.tag, node.decls)
                self.type_text.append(self.gen.visit(named) + ";")

    def tagged_definition(self, key, node):
        """Records the definition of the struct or union key; one made in a function body,
        or in the declaration of a file-scope variable (`struct grid { int n; } g;`), goes
        into the output at file scope, where the derivative routines declaring its copies
        and shadows, and the output's declaration of the variable, see it. adgen keeps one type per tag: a second definition with
        other fields (in another function) is an error."""
        text = self.gen.visit(type(node)(node.name, node.decls))
        known = self.tag_definitions.setdefault(key, text)
        if known != text:
            raise AdgenError(f"{key[0]} '{key[1]}' is defined again with other fields: adgen "
                             "keeps one type per tag (give the definitions different tags)",
                             loc_of(node))
        if known is text and (self.func is not None or self.defining_variable) and \
                defines_output_types(getattr(node.coord, "file", "") or self.path):
            self.type_text.append(text + ";")

    def local_typedef(self, td, scope, loc):
        """A typedef in a function body: its definition goes into the output at file scope
        (the struct types it defines with a tag go there by themselves:
        tagged_definition), where the derivative routines declaring its variables see it.
        adgen keeps one type per name: a second definition of the name as another type is
        an error, and so is a type of a length known at run time only."""
        t = self.named_typedef(td, scope)
        if _runtime_sized(t.target):
            raise AdgenError(f"typedef '{td.name}' inside a function names an array whose "
                             "length is known at run time only: not supported; write the "
                             "array's type where it is declared", loc)
        text = self.gen.visit(_tags_only(td))
        known = self.typedef_texts.setdefault(td.name, text)
        if known != text or (td.name in self.typedefs and known is text):
            raise AdgenError(f"typedef '{td.name}' is defined again as another type: adgen "
                             "keeps one type per name (give the typedefs different names)", loc)
        self.typedefs[td.name] = t
        if known is text and defines_output_types(loc.file):
            self.type_text.append(text + ";")

    def named_typedef(self, td, scope=None):
        t = self.type_of(td.type, scope)
        return ir.Named(td.name, t)

    def file_decl(self, d, user):
        loc = loc_of(d, Loc(self.path))
        if isinstance(d.type, c_ast.FuncDecl):
            name = d.name
            if name in self.functions and self.functions[name].has_body:
                return
            ret, params, variadic = self.func_signature(d.type)
            f = ir.Function(name, ret, params, ir.Block([]), is_static="static" in d.storage,
                            loc=loc, has_body=False, variadic=variadic)
            # a standard function declared again by the program (`double pow(double,
            # double);` beside <math.h>) is that function, with its derivative
            f.is_library = not user or name in LIBRARY_FUNCTIONS
            self.functions[name] = f
            return
        if d.name is None:
            # struct / union / enum definition
            self.type_of(d.type)
            if defines_output_types(loc.file):
                self.type_text.append(self.gen.visit(d) + ";")
            return
        self.defining_variable = True
        try:
            t = self.type_of(d.type)
        finally:
            self.defining_variable = False
        if not user:
            if d.name in _CONSTANT_MACROS:
                return
            sym = ir.Symbol(d.name, t, "global", loc, is_extern=True)
            sym.is_library = True
            self.global_scope.names[d.name] = sym
            return
        old = self.global_scope.names.get(d.name)
        sym = old if isinstance(old, ir.Symbol) else ir.Symbol(d.name, t, "global", loc)
        sym.type = t if not (isinstance(t, ir.Arr) and t.size is None and old) else sym.type
        sym.is_static = "static" in d.storage
        sym.is_extern = "extern" in d.storage and d.init is None
        sym.is_library = False
        if d.init is not None:
            sym.is_extern = False
            if isinstance(t, ir.Arr) and t.size is None and isinstance(d.init, c_ast.InitList):
                n = self.list_length(t.elem, d.init.exprs, self.global_scope, loc)
                sym.type = ir.Arr(t.elem, ir.Const(str(n), ir.INT), t.const)
            sym.init_text = self.init_text(d.init, sym.type, self.global_scope)
        if old is None:
            self.globals.append(sym)
        self.global_scope.names[d.name] = sym

    def func_signature(self, fdecl):
        ret = self.type_of(fdecl.type)
        params, variadic = [], False
        scope = Scope(self.global_scope)    # earlier parameters size later ones: a[n][m]
        if fdecl.args is not None:
            for p in fdecl.args.params:
                if isinstance(p, c_ast.EllipsisParam):
                    variadic = True
                    continue
                if isinstance(p, c_ast.ID):
                    raise AdgenError("old-style (K&R) parameter lists are not supported",
                                     loc_of(p))
                pt = self.type_of(p.type, scope)
                if pt.resolved().is_void and p.name is None:
                    continue
                declared = None
                if pt.resolved().is_array:
                    # array parameters are pointers, also through a typedef (`vec3 v`, whose
                    # const, `const vec3 v`, is its elements')
                    declared = pt.resolved().size
                    elem = pt.resolved().elem
                    pt = ir.Ptr(_const_elements(elem) if pt.const else elem)
                sym = ir.Symbol(p.name or f"arg{len(params)}", pt, "param", loc_of(p))
                # `double *restrict p`, `double p[restrict]`: the caller's promise that what
                # the function writes through p it reaches through no other parameter
                sym.declared_restrict = "restrict" in getattr(p.type, "quals", []) + \
                    getattr(p.type, "dim_quals", [])
                # `double p[n][m]`: the caller's array has n rows (elements of *p)
                sym.declared_extent = declared
                params.append(sym)
                scope.names[sym.name] = sym
        return ret, params, variadic

    # ------------------------------------------------------------------- types
    def type_of(self, node, scope=None):
        if isinstance(node, c_ast.TypeDecl):
            t = self.type_of(node.type, scope)
            return ir.with_const(t, "const" in node.quals)
        if isinstance(node, c_ast.PtrDecl):
            target = self.type_of(node.type, scope)
            if isinstance(target, ir.FuncPtr):
                return ir.FuncPtr("pointer to function", target.ret)
            return ir.Ptr(target, "const" in node.quals)
        if isinstance(node, c_ast.ArrayDecl):
            elem = self.type_of(node.type, scope)
            size = self.expr(node.dim, scope) if node.dim is not None else None
            return ir.Arr(elem, self.fixed_size(size, loc_of(node)))
        if isinstance(node, c_ast.FuncDecl):
            return ir.FuncPtr("function", self.type_of(node.type, scope))
        if isinstance(node, c_ast.Typename):
            return self.type_of(node.type, scope)
        if isinstance(node, c_ast.IdentifierType):
            names = [n for n in node.names if n not in ("signed",)] or ["int"]
            if len(names) == 1 and names[0] in self.typedefs:
                return _through_const_typedef(self.typedefs[names[0]])
            name = " ".join(names)
            name = {"long int": "long", "long long int": "long long", "short int": "short",
                    "unsigned long int": "unsigned long", "unsigned": "unsigned int",
                    "long unsigned int": "unsigned long", "long unsigned": "unsigned long"
                    }.get(name, name)
            return ir.Prim(name)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            kind = "union" if isinstance(node, c_ast.Union) else "struct"
            key = (kind, node.name) if node.name else None
            sdef = self.structs.get(key) if key else None
            if sdef is None:
                sdef = ir.StructDef(node.name, [], kind == "union", loc_of(node))
                if key:
                    self.structs[key] = sdef
                else:
                    self.anonymous.append((sdef, node))
            if node.decls is not None:
                if key:
                    self.tagged_definition(key, node)
                fields = []
                for fd in node.decls:
                    ft = self.type_of(fd.type)
                    fields.append((fd.name, ft))
                sdef.fields[:] = fields
            return ir.Struct(sdef)
        if isinstance(node, c_ast.Enum):
            if node.values is not None:
                value = -1
                for en in node.values.enumerators:
                    if en.value is not None:
                        value = self.const_int(en.value)
                    else:
                        value += 1
                    self.enum_consts[en.name] = value
            return ir.INT
        raise AdgenError(f"unsupported type construct ({type(node).__name__})", loc_of(node))

    def fixed_size(self, size, loc):
        """An array size: constant locals are replaced by their values; a size computed in
        the body cannot be used, since locals are declared at the top of the output."""
        if size is None:
            return None
        from adgen.ir.exprs import substitute
        mapping = {}
        for sub in ir.walk(size):
            if isinstance(sub, ir.Ref) and sub.sym.kind == "local":
                value = self.const_locals.get(sub.sym)
                if value is None:
                    raise AdgenError(f"array sized by the local variable '{sub.sym.name}': "
                                     "variable-length arrays sized in the body are not "
                                     "supported; use malloc or a constant size", loc)
                mapping[sub.sym] = value
        return substitute(size, mapping) if mapping else size

    def const_int(self, node):
        """Evaluate an integer constant expression (enum values, array sizes)."""
        value = self.int_constant(self.expr(node))
        if value is None:
            raise AdgenError("enumerator value must be an integer constant", loc_of(node))
        return value

    def int_constant(self, e):
        """The value of an integer constant expression in the IR, or None."""
        try:
            return int(eval(_c_int_text(e, self.enum_consts), {}))  # see _c_int_text
        except Exception:
            return None

    # --------------------------------------------------------------- functions
    def function_def(self, fd):
        loc = loc_of(fd, Loc(self.path))
        decl = fd.decl
        ret, params, variadic = self.func_signature(decl.type)
        if variadic:
            raise AdgenError(f"variadic function '{decl.name}' cannot be differentiated", loc)
        f = ir.Function(decl.name, ret, params, ir.Block([]),
                        is_static="static" in decl.storage,
                        is_inline="inline" in (decl.funcspec or []), loc=loc)
        f.is_library = False
        self.functions[decl.name] = f   # before the body: recursion
        self.func = f
        self.used_names = {p.name for p in params}
        self.loop_marks = []        # the for loops being read (see c_ast.For in stmt)
        self.loops_read = 0
        scope = Scope(self.global_scope)
        for p in params:
            scope.names[p.name] = p
        f.body = self.block(fd.body, scope)
        f.body.loc = loc
        self.stated_sizes(f)
        _jumps_inside_loops(f.body.stmts, False)
        if any(isinstance(st, jumps.Goto) for st in ir.stmts_walk(f.body.stmts)):
            # read on the jumps as written: once they are flags, no walk can follow them
            for g in self.globals:
                if getattr(g, "local_of", None) == f.name and \
                        isinstance(g.type.resolved(), ir.Prim):
                    g.set_first_across_jumps = set_before_read(f.body.stmts, g)
        jumps.lower_gotos(f, lambda base: self.hidden_local(base, ir.INT, loc))
        lower_realloc(f, self.hidden_local)
        count_whiles(f.body.stmts)
        self.func = None

    @staticmethod
    def stated_sizes(f):
        """The lengths of f's parameters its body states (`#pragma adgen size(p, n)`, as
        adgen writes them into its own output): f.stated_sizes, {name: (text, loc)}."""
        f.stated_sizes = {}
        for st in f.body.stmts:
            found = stated_size(st) if isinstance(st, ir.Pragma) else None
            if found is None:
                continue
            name, text = found
            if not any(p.name == name for p in f.params):
                raise AdgenError(f"'{name}' is not a parameter of '{f.name}'", st.loc)
            if name in f.stated_sizes:
                raise AdgenError(f"the length of '{name}' is stated twice", st.loc)
            f.stated_sizes[name] = (text, st.loc)

    def new_local(self, name, t, loc, scope):
        sym = self.hidden_local(name, t, loc)
        scope.names[name] = sym
        return sym

    # --------------------------------------------------------------- statements
    def block(self, node, scope):
        out = ir.Block([], loc_of(node))
        inner = Scope(scope)
        for item, exclusive in exclusive_pairs(fused_regions(node.block_items or [],
                                                             inner.lookup)):
            start = len(out.stmts)
            self.stmt(item, inner, out.stmts)
            if exclusive is not None and not mark_exclusive(exclusive[1], out.stmts[start:]):
                # (left as written: said where it runs serially)
                out.stmts.insert(start, ir.Pragma(exclusive[0].string, loc_of(exclusive[0])))
        return out

    def sub_block(self, node, scope):
        if node is None:
            return ir.Block([])
        if isinstance(node, c_ast.Compound):
            return self.block(node, scope)
        b = ir.Block([], loc_of(node))
        self.stmt(node, Scope(scope), b.stmts)
        return b

    def stmt(self, node, scope, out):
        loc = loc_of(node)
        if isinstance(node, c_ast.Compound):
            out.append(self.block(node, scope))
        elif isinstance(node, c_ast.Decl):
            self.local_decl(node, scope, out)
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self.local_decl(d, scope, out)
        elif isinstance(node, c_ast.Typedef):
            self.local_typedef(node, scope, loc)
        elif isinstance(node, c_ast.Assignment):
            self.assignment(node, scope, out)
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("p++", "p--", "++", "--"):
            target = self.lvalue(node.expr, scope, self._no_effects(node), self._no_effects(node))
            op = "+" if "++" in node.op else "-"
            out.append(ir.Assign(target, self.step(target, op, loc), loc))
        elif isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and \
                node.name.name in own_output.STACK_CALLS and \
                scope.lookup(node.name.name) is None and node.name.name not in self.functions:
            # the value stack of adgen's own output
            pre, post = [], []
            args = [self.expr(a, scope, pre, post) for a in node.args.exprs]
            if pre or post:
                raise AdgenError(f"unexpected call of '{node.name.name}'", loc)
            out.extend(own_output.stack_statement(node.name.name, args, self.hidden_local,
                                                  loc))
        elif isinstance(node, c_ast.FuncCall):
            pre, post = [], []
            call = self.expr(node, scope, pre, post)
            out.extend(pre)
            if isinstance(call, ir.Call):   # not the value of a call written out (modf)
                out.append(ir.ExprStmt(call, loc))
            out.extend(post)
        elif isinstance(node, c_ast.ExprList):
            for e in node.exprs:
                self.stmt(e, scope, out)
        elif isinstance(node, c_ast.If):
            test, pre = self.effect_cond(node.cond, scope)
            out.extend(pre)
            out.append(ir.If(test, self.sub_block(node.iftrue, scope),
                             self.sub_block(node.iffalse, scope) if node.iffalse else None, loc))
        elif isinstance(node, c_ast.For):
            inner = Scope(scope)
            init = []
            # the variables declared in the loop are its iterations' own (an OpenMP
            # parallel loop's private ones): each remembers the loops around it
            self.loops_read += 1
            self.loop_marks.append(self.loops_read)
            try:
                if node.init is not None:
                    self.stmt(node.init, inner, init)
                test, pre = (self.effect_cond(node.cond, inner) if node.cond is not None
                             else (None, []))
                step = []
                if node.next is not None:
                    self.stmt(node.next, inner, step)
                body = self.sub_block(node.stmt, inner)
            finally:
                mark = self.loop_marks.pop()
            if pre:
                # for (...; n-- > 0; step) body  ->  init; while (1) { t = n > 0; n--;
                # if (!t) break; body; step }, a continue running the step first
                X.continue_through(body.stmts, step)
                stop = ir.If(ir.Unary("!", test, ir.INT), ir.Block([ir.Break(loc)]), None, loc)
                out.extend(init)
                out.append(ir.While(ir.Const("1", ir.INT, loc),
                                    ir.Block(pre + [stop] + body.stmts + step, loc), loc))
            else:
                out.append(ir.For(init, test, step, body, loc))
                out[-1].source_scope = mark
        elif isinstance(node, c_ast.While):
            test, pre = self.effect_cond(node.cond, scope)
            body = self.sub_block(node.stmt, scope)
            if pre:
                # while (n-- > 0) body  ->  while (1) { t = n > 0; n = n - 1; if (!t) break; body }
                # (a continue goes back to the test and its step, as in C)
                stop = ir.If(ir.Unary("!", test, ir.INT), ir.Block([ir.Break(loc)]), None, loc)
                body.stmts = pre + [stop] + body.stmts
                test = ir.Const("1", ir.INT, loc)
            out.append(ir.While(test, body, loc))
        elif isinstance(node, c_ast.DoWhile):
            body = self.sub_block(node.stmt, scope)
            test, pre = self.effect_cond(node.cond, scope)
            if pre:
                # do body while (n-- > 0)  ->  do { body; t = n > 0; n--; } while (t), a
                # continue going to the test through its statements
                X.continue_through(body.stmts, pre)
                body.stmts += pre
            out.append(ir.DoWhile(body, test, loc))
        elif isinstance(node, c_ast.Break):
            out.append(ir.Break(loc))
        elif isinstance(node, c_ast.Continue):
            out.append(ir.Continue(loc))
        elif isinstance(node, c_ast.Return):
            returns_void = self.func.ret.resolved() == ir.VOID
            if (node.expr is None) != returns_void:
                raise AdgenError(f"'return' {'with' if returns_void else 'without'} a value in "
                                 f"'{self.func.name}', which returns "
                                 f"{'void' if returns_void else 'a value'}", loc)
            if node.expr is None:
                out.append(ir.Return(None, loc))
            else:
                pre, post = [], []
                value = self.convert(self.expr(node.expr, scope, pre, post), self.func.ret)
                out.extend(pre)
                if post:
                    # `return (*k)++ % 4;`: the value is read before the increments run
                    held = self.hidden_local("returned", ir.with_const(self.func.ret, False),
                                             loc)
                    out.append(ir.Assign(ir.Ref(held, loc), value, loc))
                    out.extend(post)
                    value = ir.Ref(held, loc)
                out.append(ir.Return(value, loc))
        elif isinstance(node, c_ast.EmptyStatement):
            pass
        elif isinstance(node, c_ast.Pragma):
            out.append(ir.Pragma(node.string, loc))
            check_directive(out[-1])
        elif isinstance(node, c_ast.Switch):
            out.append(self.switch(node, scope))
        elif isinstance(node, c_ast.Label):
            out.append(jumps.Label(node.name, loc))
            self.stmt(node.stmt, scope, out)
        elif isinstance(node, c_ast.Goto):
            out.append(jumps.Goto(node.name, loc))
        elif isinstance(node, (c_ast.BinaryOp, c_ast.ID, c_ast.Constant, c_ast.Cast,
                               c_ast.UnaryOp, c_ast.ArrayRef, c_ast.StructRef)):
            pre, post = [], []
            e = self.expr(node, scope, pre, post)     # evaluated for its side effects only
            while isinstance(e, ir.Cast):
                e = e.arg
            out.extend(pre)
            if isinstance(e, ir.Call):                # (void)f(x);
                out.append(ir.ExprStmt(e, loc))
            elif any(isinstance(sub, ir.Call) for sub in ir.walk(e)):
                raise AdgenError("a call whose value is discarded inside an expression is "
                                 "not supported; make it a statement of its own", loc)
            out.extend(post)
        else:
            raise AdgenError(f"unsupported statement ({type(node).__name__})", loc)

    def switch(self, node, scope):
        """switch on an integer, lowered to an if/else chain with one branch per group of
        labels. A group that falls through runs the statements of the groups after it too
        (converted again for it). The break ending a group is dropped; a break anywhere
        else leaves a `do { chain } while (0)` around the chain, and a continue for the
        enclosing loop then goes out of it by a flag."""
        loc = loc_of(node)
        sel, pre = self.effect_cond(node.cond, scope)
        if not sel.type.resolved().is_int:
            raise AdgenError("switch needs an integer selector", loc)
        out = list(pre)
        groups = self.case_groups(node, scope)
        if all(is_default for _, is_default, _, _ in groups):
            # no case to test: the selector is evaluated for the effects of its calls only
            out += [ir.ExprStmt(c, loc) for c in _outermost_calls(sel)
                    if c.func not in LIBRARY_FUNCTIONS or
                    LIBRARY_FUNCTIONS[c.func].kind == "effect"]
        elif not isinstance(sel, (ir.Ref, ir.Const)):      # evaluated once, as C does
            tmp = self.new_local("selector", ir.INT, loc, Scope(scope))
            out.append(ir.Assign(ir.Ref(tmp, loc), sel, loc))
            sel = ir.Ref(tmp, loc)
        branches, default = [], None
        case_labels = set()     # the labels (goto targets) the branches converted so far define
        for g, (labels, is_default, _, item) in enumerate(groups):
            stmts = []
            for later in groups[g:]:
                if later is not groups[g]:
                    _no_static_locals(later[2])
                stmts += later[2]
                if _ends_case(stmts):
                    break
            block = ir.Block([], loc_of(item))
            inner = Scope(scope)
            for s in _without_final_break(stmts):
                self.stmt(s, inner, block.stmts)
            # (a label in statements another case falls into: once per branch running them)
            jumps.relabel_copy(block.stmts, case_labels, f"case{g + 1}")
            if is_default:
                default = block
            else:
                test = None
                for lab in labels:
                    t = ir.Binary("==", sel, lab, ir.INT, loc)
                    test = t if test is None else ir.Binary("||", test, t, ir.INT, loc)
                branches.append((test, block, loc_of(item)))
        chain = default
        for test, block, l in reversed(branches):
            chain = ir.Block([ir.If(test, block, chain, l)], l)
        chain = chain or ir.Block([], loc)
        if not any(isinstance(s, ir.Break) for s in X.loop_level(chain.stmts)):
            return ir.Block(out + chain.stmts, loc)
        # breaks inside the cases: the chain becomes a loop run once, for them to leave
        if any(isinstance(s, ir.Continue) for s in X.loop_level(chain.stmts)):
            flag = self.new_local("switch_continue", ir.INT, loc, Scope(scope))
            out.append(ir.Assign(ir.Ref(flag, loc), ir.Const("0", ir.INT, loc), loc))
            _continue_by_flag(chain, flag)
            after = [ir.If(ir.Ref(flag, loc), ir.Block([ir.Continue(loc)], loc), None, loc)]
        else:
            after = []
        return ir.Block(out + [ir.DoWhile(chain, ir.Const("0", ir.INT, loc), loc)] + after, loc)

    def case_groups(self, node, scope):
        """The switch's cases as (labels, is_default, statements, first item): labels with
        no statements of their own join the next case's group."""
        groups, labels, is_default = [], [], False
        for item in (node.stmt.block_items or []):
            if not isinstance(item, (c_ast.Case, c_ast.Default)):
                raise AdgenError("statements outside case labels in switch", loc_of(item))
            if isinstance(item, c_ast.Default):
                is_default = True
            else:
                labels.append(self.expr(item.expr, scope))
            if item.stmts:
                groups.append((labels, is_default, list(item.stmts), item))
                labels, is_default = [], False
        return groups

    def local_decl(self, d, scope, out):
        loc = loc_of(d)
        if isinstance(d.type, c_ast.FuncDecl):
            # a function declared inside a body (f2c writes `double sqrt(doublereal),
            # pow_dd(doublereal *, doublereal *);` in every function): as at file scope
            self.file_decl(d, user=True)
            return
        if d.name is None:
            self.type_of(d.type)
            raise AdgenError("struct definitions inside functions are not supported; "
                             "move it to file scope", loc)
        if "extern" in d.storage:
            # `extern double gs;` in a body names the file-scope variable (declared at
            # file scope here when the file has not declared it yet)
            if not isinstance(self.global_scope.names.get(d.name), ir.Symbol):
                self.file_decl(d, user=True)
            scope.names[d.name] = self.global_scope.names[d.name]
            return
        t = self.type_of(d.type, scope)
        if isinstance(t, ir.FuncPtr) and "static" in d.storage:
            raise AdgenError(f"static local function pointer '{d.name}' is not supported",
                             loc)
        if "static" in d.storage:
            return self.static_local(d, t, scope, loc)
        if isinstance(t, ir.Arr) and t.size is None and isinstance(d.init, c_ast.InitList):
            t = ir.Arr(t.elem, ir.Const(
                str(self.list_length(t.elem, d.init.exprs, scope, loc)), ir.INT))
        elif isinstance(t, ir.Arr) and t.size is None and is_string(d.init):
            t = ir.Arr(t.elem, ir.Const(str(string_array_length(d.init.value, loc)), ir.INT))
        sym = self.new_local(d.name, t, loc, scope)
        if d.init is not None:
            if t.const and t.resolved().is_int and not isinstance(d.init, c_ast.InitList):
                try:
                    self.const_locals[sym] = ir.Const(str(self.const_int(d.init)), ir.INT)
                except AdgenError:
                    pass
            self.initialise(ir.Ref(sym, loc), t, d.init, scope, out, loc)

    def static_local(self, d, t, scope, loc):
        name = ir.static_local_name(self.func.name, d.name)
        sym = ir.Symbol(name, t, "global", loc, is_static=True)
        sym.is_library = False
        sym.static_local = True
        sym.local_name, sym.local_of = d.name, self.func.name
        if d.init is not None:
            sym.init_text = self.init_text(d.init, t, scope)
        self.globals.append(sym)
        scope.names[d.name] = sym

    def function_value(self, node, scope, loc, pre, post):
        """A function named as a value stored in a pointer (`quad`, `&quad`, `k ? quad :
        cube`, the test read into pre and post), as a constant naming it (a choice of
        constants); None for anything else."""
        if isinstance(node, c_ast.TernaryOp):
            inner_pre, inner_post = [], []      # (the tests of choices inside)
            a, b = (self.function_value(x, scope, loc, inner_pre, inner_post)
                    for x in (node.iftrue, node.iffalse))
            if a is None or b is None:
                return None
            pre += inner_pre
            post += inner_post
            return ir.Cond(self.expr(node.cond, scope, pre, post), a, b, a.type, loc)
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            node = node.expr
        if not isinstance(node, c_ast.ID) or isinstance(scope.lookup(node.name), ir.Symbol):
            return None
        f = self.functions.get(node.name)
        if f is None:
            return None
        return ir.Const(node.name, ir.FuncPtr("pointer to function", f.ret), loc)

    def hidden_local(self, base, t, loc):
        """A local of a unique name; the source cannot name it unless the scope is told
        (new_local)."""
        unique, k = base, 2
        while unique in self.used_names or unique in self.global_scope.names \
                or unique in self.functions:
            unique = f"{base}_{k}"
            k += 1
        self.used_names.add(unique)
        sym = ir.Symbol(unique, t, "local", loc)
        if self.loop_marks:
            sym.loop_scopes = tuple(self.loop_marks)
        self.func.locals.append(sym)
        return sym

    def assignment(self, node, scope, out):
        loc = loc_of(node)
        pre, post = [], []
        target = self.lvalue(node.lvalue, scope, pre, post)
        if isinstance(node.rvalue, c_ast.Assignment):
            # a = b = e: b = e first, then a = b
            inner = self.assignment(node.rvalue, scope, pre)
            value = X_clone(inner)
        elif isinstance(target.type.resolved(), ir.FuncPtr) and node.op == "=" and \
                (stored := self.function_value(node.rvalue, scope, loc, pre, post)) is not None:
            # a function stored in a pointer (function_pointers.resolve reads it)
            value = stored
        else:
            value = self.expr(node.rvalue, scope, pre, post)
        if node.op != "=":
            op = _ASSIGN_OPS[node.op]
            value = self.binary(op, target, value, loc)
        out.extend(pre)
        out.append(ir.Assign(target, self.convert(value, target.type), loc))
        out.extend(post)
        return target

    def step(self, target, op, loc):
        one = ir.Const("1", ir.INT, loc)
        return self.binary(op, target, one, loc)

    def _no_effects(self, node):
        class NoEffects(list):
            def append(inner, item):
                raise AdgenError("nested increments are not supported", loc_of(node))
        return NoEffects()

    def cond(self, node, scope, what):
        pre, post = [], []
        e = self.expr(node, scope, pre, post)
        if pre or post:
            raise AdgenError(f"increments inside a {what} condition are not supported",
                             loc_of(node))
        return e

    def effect_cond(self, node, scope):
        """A condition and the statements computing it when it has side effects
        (`n-- > 0`): the value goes to a temporary before the increments run."""
        pre, post = [], []
        e = self.expr(node, scope, pre, post)
        if not post and not pre:
            return e, []
        loc = loc_of(node)
        t = self.new_local("cond", ir.INT, loc, Scope(scope))
        return ir.Ref(t, loc), pre + [ir.Assign(ir.Ref(t, loc), e, loc)] + post

    def lvalue(self, node, scope, pre=None, post=None):
        pre = [] if pre is None else pre
        post = [] if post is None else post
        e = self.expr(node, scope, pre, post)
        if not ir.is_lvalue(e):
            raise AdgenError("assignment to something that is not a variable", loc_of(node))
        return e

    # ------------------------------------------------------------- expressions
    def expr(self, node, scope=None, pre=None, post=None):
        scope = scope or self.global_scope
        pre = [] if pre is None else pre
        post = [] if post is None else post
        loc = loc_of(node)
        E = lambda n: self.expr(n, scope, pre, post)  # noqa: E731
        if isinstance(node, c_ast.Constant):
            return self.constant(node, loc)
        if isinstance(node, c_ast.ID):
            return self.identifier(node.name, scope, loc)
        if isinstance(node, c_ast.BinaryOp):
            if node.op in ("&&", "||"):
                return self.logical(node, scope, pre, post, loc)
            left = E(node.left)
            right = E(node.right)
            return self.binary(node.op, left, right, loc)
        if isinstance(node, c_ast.UnaryOp):
            return self.unary(node, scope, pre, post, loc)
        if isinstance(node, c_ast.Cast):
            to = self.type_of(node.to_type, scope)
            if isinstance(to, ir.FuncPtr):
                raise AdgenError("casts to function pointers are not supported", loc)
            return ir.Cast(to, E(node.expr), loc)
        if isinstance(node, c_ast.ArrayRef):
            base = E(node.name)
            idx = E(node.subscript)
            bt = base.type.resolved()
            if not isinstance(bt, (ir.Ptr, ir.Arr)):
                base, idx = idx, base          # 2[a]
                bt = base.type.resolved()
                if not isinstance(bt, (ir.Ptr, ir.Arr)):
                    raise AdgenError("subscript of something that is not an array", loc)
            return ir.Index(base, idx, ir.pointee(bt), loc)
        if isinstance(node, c_ast.StructRef):
            base = E(node.name)
            arrow = node.type == "->"
            st = base.type.resolved()
            if arrow:
                st = ir.pointee(st)
                st = st.resolved() if st is not None else None
            if not isinstance(st, ir.Struct):
                raise AdgenError(f"member '{node.field.name}' of something that is not a struct",
                                 loc)
            if st.sdef.is_union:
                raise AdgenError("unions are not supported (they can reinterpret active values)",
                                 loc)
            ft = st.sdef.field_type(node.field.name)
            if ft is None:
                raise AdgenError(f"no member named '{node.field.name}'", loc)
            return ir.Member(base, node.field.name, arrow, ft, loc)
        if isinstance(node, c_ast.FuncCall):
            return self.call(node, scope, pre, post, loc)
        if isinstance(node, c_ast.TernaryOp):
            tpost = []
            test = self.expr(node.cond, scope, pre, tpost)
            if tpost:
                # the test's increments take effect before a branch is evaluated
                test = self.truth_value(test, scope, pre, loc)
                pre.extend(tpost)
            apre, apost, bpre, bpost = [], [], [], []
            a = self.expr(node.iftrue, scope, apre, apost)
            b = self.expr(node.iffalse, scope, bpre, bpost)
            t = a.type if (a.type.resolved().is_pointer) else (
                b.type if b.type.resolved().is_pointer else ir.arith_result(a.type, b.type))
            if not (apre or apost or bpre or bpost):
                return ir.Cond(test, a, b, t, loc)
            # a branch with side effects (a call, an increment) runs only when taken:
            # `if (c) { ...; v = a; ... } else { ...; v = b; ... }`, then v
            v = self.new_local("cond_value", ir.with_const(t, False), loc, Scope(scope))
            pre.append(ir.If(
                test, ir.Block(apre + [ir.Assign(ir.Ref(v, loc), self.convert(a, t), loc)] +
                               apost, loc),
                ir.Block(bpre + [ir.Assign(ir.Ref(v, loc), self.convert(b, t), loc)] + bpost,
                         loc), loc))
            return ir.Ref(v, loc)
        if isinstance(node, c_ast.Assignment):
            # `(t = e) > 0`: the assignment goes first, the expression reads t after it
            if any(isinstance(n, (c_ast.Assignment, c_ast.FuncCall)) or
                   isinstance(n, c_ast.UnaryOp) and n.op in ("p++", "p--", "++", "--")
                   for n in _c_nodes(node.lvalue)):
                raise AdgenError("an assignment inside an expression whose target has side "
                                 "effects is not supported", loc)
            return X_clone(self.assignment(node, scope, pre))
        if isinstance(node, c_ast.ExprList):
            # `(a, b)`: a for its effects, done before b is read (a sequence point)
            for item in node.exprs[:-1]:
                self.stmt(item, scope, pre)
            return E(node.exprs[-1])
        if isinstance(node, c_ast.InitList):
            return ir.InitList([E(x) for x in node.exprs], None, loc)
        if isinstance(node, c_ast.Typename):
            return self.type_of(node)
        if isinstance(node, c_ast.CompoundLiteral):
            return lower_compound_literal(self, node, scope, pre, loc)
        raise AdgenError(f"unsupported expression ({type(node).__name__})", loc)

    def constant(self, node, loc):
        if node.type == "string":
            return ir.Const(node.value, ir.Ptr(ir.Prim("char", True)), loc)
        if node.type == "char":
            return ir.Const(node.value, ir.Prim("char"), loc)
        text = node.value
        low = text.lower()
        is_hex = low.startswith("0x")
        if not is_hex and ("." in low or "e" in low) or low.endswith("f") and not is_hex:
            if low.endswith("f"):
                return ir.Const(text, ir.FLOAT, loc)
            if low.endswith("l"):
                return ir.Const(text, ir.Prim("long double"), loc)
            return ir.Const(text, ir.DOUBLE, loc)
        t = ir.INT
        if low.endswith("ul") or low.endswith("lu"):
            t = ir.Prim("unsigned long")
        elif low.endswith("l"):
            t = ir.LONG
        elif low.endswith("u"):
            t = ir.Prim("unsigned int")
        return ir.Const(text, t, loc)

    def function_argument(self, node, scope, loc, pre=None, post=None):
        """A function passed as an argument (`f` or `&f`), as a constant naming it; a
        choice between such (`k % 2 ? relu : gelu`, the test read into pre and post), as
        the conditional of them (transform/callbacks.py makes it a choice of calls); or
        None."""
        if isinstance(node, c_ast.TernaryOp) and pre is not None:
            then, other = (self.function_argument(x, scope, loc, pre, post)
                           for x in (node.iftrue, node.iffalse))
            if then is None and other is None:
                return None
            # (read as values only beside a function: `c ? f : NULL`)
            then = then or self.null_argument(node.iftrue, scope)
            other = other or self.null_argument(node.iffalse, scope)
            if then is None or other is None:
                return None
            test = self.expr(node.cond, scope, pre, post)
            return ir.Cond(test, then, other, then.type, loc)
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            node = node.expr
        if not isinstance(node, c_ast.ID):
            return None
        name, sym = self.fixed_function(node.name, scope.lookup(node.name), loc)
        if isinstance(sym, ir.Symbol):
            # a function pointer parameter passed on
            return ir.Ref(sym, loc) if isinstance(sym.type.resolved(), ir.FuncPtr) else None
        f = self.functions.get(name)
        return ir.Const(name, ir.FuncPtr("pointer to function", f.ret), loc) \
            if f is not None else None

    def null_argument(self, node, scope):
        """NULL (or 0) where a function may be passed, as the null pointer; else None."""
        try:
            e = self.expr(node, scope, [], [])
        except AdgenError:
            return None
        return X.null(ir.FuncPtr("pointer to function"), e.loc) if X.is_null(e) else None

    def fixed_function(self, name, sym, loc):
        """(name, symbol) of what a name used as a function denotes: for a file-scope
        `static` function pointer initialized with a function (`static rhs_fn rhs =
        decay;`), that function and no symbol, to be called or passed on as it is, unless a
        function of the file sets the pointer (check_fixed_pointers); else as given."""
        if not (isinstance(sym, ir.Symbol) and sym.kind == "global" and sym.is_static and
                isinstance(sym.type.resolved(), ir.FuncPtr)):
            return name, sym
        init = (sym.init_text or "").strip().lstrip("&").strip()
        f = self.functions.get(init)
        if f is None or getattr(f, "is_library", False):
            return name, sym
        self.fixed_pointer_calls.append((self.func, sym, init, loc))
        return init, None

    def identifier(self, name, scope, loc):
        sym = scope.lookup(name)
        if isinstance(sym, ir.Symbol):
            return ir.Ref(sym, loc)
        if name in self.enum_consts:
            return ir.Const(name, ir.INT, loc, value=int(self.enum_consts[name]))
        if name in _CONSTANT_MACROS:
            return ir.Const(name, _CONSTANT_MACROS[name], loc)
        if name in self.functions:
            raise AdgenError(f"function '{name}' used as a value (a function pointer) other "
                             "than passed to a call or stored in a function pointer: adgen "
                             "cannot follow it; pass it as an argument", loc)
        raise AdgenError(f"use of undeclared identifier '{name}'", loc)

    def logical(self, node, scope, pre, post, loc):
        """a && b, a || b. The right operand is evaluated only when the left one does not
        decide, and after the left one's increments: where either has side effects, the
        value goes through a temporary, `t = a; (increments of a); if (t) t = b;`."""
        lpost, rpre, rpost = [], [], []
        left = self.expr(node.left, scope, pre, lpost)
        right = self.expr(node.right, scope, rpre, rpost)
        if not (lpost or rpre or rpost):
            return self.binary(node.op, left, right, loc)
        t = self.truth_value(left, scope, pre, loc)
        pre.extend(lpost)
        test = t if node.op == "&&" else ir.Unary("!", X_clone(t), ir.INT, loc)
        pre.append(ir.If(test, ir.Block(rpre + [
            ir.Assign(X_clone(t), self.truth(right, loc), loc)] + rpost, loc), None, loc))
        return X_clone(t)

    def truth_value(self, e, scope, pre, loc):
        """A temporary holding the truth value (0 or 1) of e, set in pre."""
        t = self.new_local("cond", ir.INT, loc, Scope(scope))
        pre.append(ir.Assign(ir.Ref(t, loc), self.truth(e, loc), loc))
        return ir.Ref(t, loc)

    @staticmethod
    def truth(e, loc):
        if isinstance(e, ir.Binary) and (e.op in ir.COMPARISONS or e.op in ir.LOGICAL) or \
                isinstance(e, ir.Unary) and e.op == "!":
            return e
        return ir.Binary("!=", e, ir.Const("0", ir.INT, loc), ir.INT, loc)

    def unary(self, node, scope, pre, post, loc):
        op = node.op
        if op == "sizeof":
            arg = node.expr
            if isinstance(arg, c_ast.Typename):
                return ir.SizeOf(self.type_of(arg, scope), ir.SIZE_T, loc)
            inner_pre, inner_post = [], []
            return ir.SizeOf(self.expr(arg, scope, inner_pre, inner_post), ir.SIZE_T, loc)
        if op in ("p++", "p--", "++", "--"):
            target = self.lvalue(node.expr, scope, self._no_effects(node), self._no_effects(node))
            upd = ir.Assign(target, self.step(target, "+" if "++" in op else "-", loc), loc)
            (post if op.startswith("p") else pre).append(upd)
            return target
        arg = self.expr(node.expr, scope, pre, post)
        if op == "*":
            t = ir.pointee(arg.type)
            if t is None:
                raise AdgenError("dereference of something that is not a pointer", loc)
            return ir.Deref(arg, t, loc)
        if op == "&":
            if not ir.is_lvalue(arg):
                raise AdgenError("address of something that is not a variable", loc)
            return ir.AddrOf(arg, ir.Ptr(arg.type), loc)
        if op == "!":
            return ir.Unary("!", arg, ir.INT, loc)
        if op in ("-", "+", "~"):
            t = arg.type
            if t.resolved().is_int:
                t = ir.arith_result(t, ir.INT)
            return ir.Unary(op, arg, t, loc)
        raise AdgenError(f"unsupported operator '{op}'", loc)

    def binary(self, op, left, right, loc):
        lt, rt = left.type.resolved(), right.type.resolved()
        if op in ir.COMPARISONS or op in ir.LOGICAL:
            return ir.Binary(op, left, right, ir.INT, loc)
        lp = isinstance(lt, (ir.Ptr, ir.Arr))
        rp = isinstance(rt, (ir.Ptr, ir.Arr))
        if lp and rp and op == "-":
            return ir.Binary(op, left, right, ir.LONG, loc)
        if lp and op in "+-":
            return ir.Binary(op, left, right, ir.Ptr(ir.pointee(lt)), loc)
        if rp and op == "+":
            return ir.Binary(op, right, left, ir.Ptr(ir.pointee(rt)), loc)
        if lp or rp:
            raise AdgenError(f"unsupported pointer arithmetic '{op}'", loc)
        if op in ("<<", ">>"):
            return ir.Binary(op, left, right, ir.arith_result(left.type, ir.INT), loc)
        return ir.Binary(op, left, right, ir.arith_result(left.type, right.type), loc)

    def call(self, node, scope, pre, post, loc):
        callee = node.name
        while isinstance(callee, c_ast.UnaryOp) and callee.op == "*":
            callee = callee.expr        # (*f)(x), as f(x)
        if not isinstance(callee, c_ast.ID):
            return self.stored_call(callee, node, scope, pre, post, loc)
        name = callee.name
        args = [self.function_argument(a, scope, loc, pre, post) or
                self.expr(a, scope, pre, post)
                for a in (node.args.exprs if node.args else [])]
        name, sym = self.fixed_function(name, scope.lookup(name), loc)
        if isinstance(sym, ir.Symbol):
            t = sym.type.resolved()
            if isinstance(t, ir.FuncPtr) and sym.kind != "param":
                return self.stored_call(callee, node, scope, pre, post, loc)
            if not isinstance(t, ir.FuncPtr):
                raise AdgenError(f"call through '{name}', which is not a function", loc)
            # a call of a function the caller passes: specialized away (callbacks.py)
            call = ir.Call(name, args, t.ret if t.ret is not None else ir.INT, loc)
            call.through = sym
            return call
        if name in ("asm", "__asm__", "__asm"):
            raise AdgenError("inline assembly is not supported", loc)
        if name in ("setjmp", "longjmp"):
            raise AdgenError(f"{name} cannot be differentiated (non-local jumps are not "
                             "supported)", loc)
        if name in ("va_start", "va_end", "va_arg"):
            raise AdgenError("variadic argument access is not supported", loc)
        f = self.functions.get(name)
        if name == "qsort" and (f is None or getattr(f, "is_library", False)):
            found = qsort.sorted_elements(args)
            if found is not None:
                return self.sort_call(found, args, loc)
        if f is None and name.startswith("__builtin_"):
            # gcc's builtins of the math library are the library functions
            base = name[len("__builtin_"):]
            if base == "expect" and len(args) == 2:
                # __builtin_expect(e, c) is e, a hint, as gcc declares it: a long
                return args[0] if args[0].type.resolved().is_int else \
                    ir.Cast(ir.LONG, args[0], loc)
            if base in LIBRARY_FUNCTIONS and LIBRARY_FUNCTIONS[base].kind in ("math", "step"):
                name, f = base, self.functions.get(base)
        if f is None:
            name = own_output.SCRATCH_CALLS.get(name, name)
            if name in LIBRARY_FUNCTIONS:
                return ir.Call(name, args, LIBRARY_FUNCTIONS[name].ret, loc)
            own_output.check_runtime_call(name, loc)
            raise AdgenError(f"call to undeclared function '{name}'", loc)
        if name in F2C_READS and not f.has_body:
            raise AdgenError(f"'{name}' starts a Fortran READ statement (C that f2c "
                             "translated): adgen does not follow the values it reads into "
                             "variables; read the data before the routine that is "
                             "differentiated, and pass it in", loc)
        if f.variadic and not getattr(f, "is_library", False):
            raise AdgenError(f"call to variadic function '{name}' is not supported", loc)
        params = f.params
        if not f.variadic and len(args) != len(params) and not (len(params) == 0):
            raise AdgenError(f"'{name}' takes {len(params)} arguments, {len(args)} given", loc)
        conv = []
        for k, a in enumerate(args):
            if k < len(params) and isinstance(a.type.resolved(), ir.FuncPtr) and \
                    not isinstance(params[k].type.resolved(), ir.FuncPtr):
                given = a.text if isinstance(a, ir.Const) else a.sym.name
                raise AdgenError(f"the function '{given}' is passed to '{name}' for "
                                 f"'{params[k].name}', which is not a function pointer", loc)
            if k < len(params) and not f.variadic:
                conv.append(self.convert(a, params[k].type))
            else:
                conv.append(a)
        if getattr(f, "is_library", False) and through_pointer(name) and len(conv) == 2 \
                and name not in self.inactive:
            return self.through_pointer(name, conv, pre, loc)
        if name in F2C_STRING_CALLS and not f.has_body and name not in self.inactive and \
                len(conv) == (2 if name == "i_len" else 4):
            return f2c_string_call(name, conv, pre, self.hidden_local, loc)
        if name in F2C_CALLS and not f.has_body and name not in self.inactive and \
                all(isinstance(p.type.resolved(), ir.Ptr) for p in params):
            return self.f2c_call(name, params, conv)
        if name in LIBRARY_FUNCTIONS and getattr(f, "is_library", False):
            return ir.Call(name, conv, LIBRARY_FUNCTIONS[name].ret, loc)
        return ir.Call(name, conv, f.ret, loc)

    def sort_call(self, found, args, loc):
        """`qsort(base, n, size, cmp)` as a call of the sort of base's element type
        (frontend/qsort.py), defined once the file is read."""
        base, elem = found
        key = qsort.element_key(elem)
        if key not in self.sorts:
            name = qsort.sort_name(elem, set(self.functions) |
                                   {n for n, _, _ in self.sorts.values()})
            self.sorts[key] = (name, elem, loc)
        return ir.Call(self.sorts[key][0], [base, ir.Cast(ir.LONG, args[1]), args[3]],
                       ir.VOID, loc)

    def define_sorts(self):
        for name, elem, loc in self.sorts.values():
            self.typedefs[qsort.ELEMENT] = elem
            try:
                self.function_def(qsort.sort_definition(name, loc))
            finally:
                del self.typedefs[qsort.ELEMENT]

    def stored_call(self, callee, node, scope, pre, post, loc):
        """A call through a function pointer kept in a variable or a struct field: named
        after the function stored there once every store is read
        (function_pointers.resolve)."""
        storage = self.expr(callee, scope, pre, post)
        t = storage.type.resolved() if storage.type is not None else None
        if not isinstance(t, ir.FuncPtr):
            raise AdgenError(f"call through '{self.gen.visit(callee)}', which is not a "
                             "function pointer adgen can follow", loc)
        args = [self.function_argument(a, scope, loc, pre, post) or
                self.expr(a, scope, pre, post)
                for a in (node.args.exprs if node.args else [])]
        call = ir.Call(self.gen.visit(callee), args, t.ret if t.ret is not None else ir.INT,
                       loc)
        call.through_storage = storage
        return call

    def f2c_call(self, name, params, args):
        """A call of one of libf2c's intrinsics as the expression that computes it
        (rules.F2C_CALLS), over what its arguments point to."""
        stand_in = [ir.Symbol(x, p.type, "param") for x, p in zip("xy", params)]
        e = parse_expr_in_scope(F2C_CALLS[name], stand_in, f"libf2c's {name}")
        return X.substitute(e, dict(zip(stand_in, args)))

    def through_pointer(self, name, args, pre, loc):
        """A call of frexp or modf as the statements it equals (rules.THROUGH_POINTER):
        its argument and pointer kept, the output through the pointer set, then the result,
        which reads it."""
        t, out_text, result_text = through_pointer(name)
        x = self.hidden_local(f"{name}_arg", t, loc)
        y = self.hidden_local(f"{name}_out", ir.with_const(args[1].type, False), loc)
        pre.append(ir.Assign(ir.Ref(x, loc), args[0], loc))
        pre.append(ir.Assign(ir.Ref(y, loc), args[1], loc))
        stand_in = [ir.Symbol("x", t, "param"), ir.Symbol("y", y.type, "param")]
        mapping = dict(zip(stand_in, (ir.Ref(x, loc), ir.Ref(y, loc))))

        def read(text):
            e = parse_expr_in_scope(text, stand_in, "a library function's rule")
            return X.substitute(e, mapping)

        target = ir.Deref(ir.Ref(y, loc), ir.pointee(y.type.resolved()), loc)
        pre.append(ir.Assign(target, self.convert(read(out_text), target.type), loc))
        return read(result_text)

    def convert(self, e, to):
        """Make an implicit conversion between number types explicit when it matters, and
        one of a `void *` variable to another pointer type (what the memory is viewed as:
        analysis/reinterpret.py)."""
        et, tt = e.type.resolved(), to.resolved()
        if isinstance(et, ir.Ptr) and et.target.resolved().is_void and \
                isinstance(tt, ir.Ptr) and not tt.target.resolved().is_void and \
                isinstance(e, (ir.Ref, ir.Member, ir.Index, ir.Deref)):
            return ir.Cast(to, e, e.loc)
        if isinstance(tt, ir.Prim) and isinstance(et, ir.Prim) and not tt.is_void:
            if tt.is_float != et.is_float or (tt.is_float and et.name != tt.name):
                if isinstance(e, ir.Const) and tt.is_float and et.is_int:
                    return ir.Const(_float_literal(e.text, tt), ir.Prim(tt.name), e.loc)
                if tt.is_float and et.is_float and isinstance(e, ir.Const):
                    return e
                return ir.Cast(ir.Prim(tt.name), e, e.loc)
        return e


def _jumps_inside_loops(stmts, in_loop):
    """Refuses a break or continue outside any loop (invalid C; a switch's breaks are
    inside the `do ... while (0)` it is lowered to by now)."""
    for s in stmts:
        if isinstance(s, (ir.Break, ir.Continue)) and not in_loop:
            raise AdgenError(f"'{'break' if isinstance(s, ir.Break) else 'continue'}' "
                             "outside a loop or switch", s.loc)
        if isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            _jumps_inside_loops(s.body.stmts, True)
        elif isinstance(s, ir.Block):
            _jumps_inside_loops(s.stmts, in_loop)
        elif isinstance(s, ir.If):
            _jumps_inside_loops(s.then.stmts, in_loop)
            if s.other is not None:
                _jumps_inside_loops(s.other.stmts, in_loop)


def X_clone(e):
    from adgen.ir.exprs import clone
    return clone(e)


def _float_literal(text, t):
    digits = text.rstrip("uUlL")
    if digits.startswith(("0x", "0X")) or (len(digits) > 1 and digits.startswith("0")):
        digits = str(int(digits, 0))
    return digits + (".0f" if t.resolved().name == "float" else ".0")


def _c_int_text(e, enums):
    """Text of an integer constant expression (digits, enumerators and operators), for
    evaluating it in Python."""
    if isinstance(e, ir.Const):
        if e.text in enums:
            return str(enums[e.text])
        t = e.text.rstrip("uUlL")
        if not (t.lstrip("-").isdigit() or t.startswith(("0x", "0X"))):
            raise ValueError(t)
        return str(int(t, 0))
    if isinstance(e, ir.Unary) and e.op in "-+~":
        return f"({e.op}{_c_int_text(e.arg, enums)})"
    if isinstance(e, ir.Binary) and e.op in ("+", "-", "*", "<<", ">>", "|", "&"):
        return f"({_c_int_text(e.left, enums)} {e.op} {_c_int_text(e.right, enums)})"
    if isinstance(e, ir.Binary) and e.op == "/":
        return f"({_c_int_text(e.left, enums)} // {_c_int_text(e.right, enums)})"
    raise ValueError("not constant")


def parse_length(text, params, by_reference, where="--size", macros=None):
    """A length written over a function's parameters (`--size`, a rule) and the program's
    macros. By reference (Fortran, every argument a pointer), a parameter `n` in the text
    means *n."""
    text = expand_macros(text, macros or {}, {q.name for q in params})
    if not by_reference:
        e = parse_expr_in_scope(text, params, where)
        t = e.type.resolved() if e.type is not None else None
        if t is None or not t.is_int:
            pointer = next((r.sym.name for r in ir.walk(e) if isinstance(r, ir.Ref) and
                            r.sym.type.resolved().is_pointer), None)
            raise AdgenError(f"the length '{text}' given with {where} is not an integer" +
                             (f": '{pointer}' is a pointer (for the number it points to, "
                              f"write *{pointer})" if pointer else ""))
        return e
    # parsed over integer stand-ins (n * n is no pointer arithmetic), then *n put back
    from adgen.ir.exprs import substitute
    values, scope = {}, []
    for q in params:
        target = ir.pointee(q.type.resolved())
        if target is not None and target.resolved().is_int:
            v = ir.Symbol(q.name, ir.with_const(target, False), "param")
            values[v] = ir.Deref(ir.Ref(q), v.type)
            scope.append(v)
    return substitute(parse_expr_in_scope(text, scope, where), values)


def expand_macros(text, macros, names):
    """text with the object-like macros it names (that are not in names) replaced by their
    definitions, as the preprocessor would."""
    def one(m):
        name = m.group(0)
        return f"({macros[name]})" if name in macros and name not in names else name

    for _ in range(32):         # macros naming macros; a cycle stops here
        expanded = re.sub(r"\b[A-Za-z_]\w*\b", one, text)
        if expanded == text:
            break
        text = expanded
    return text


def parse_expr_in_scope(text, symbols, where="--size"):
    """Parse a C expression (from the command line) over the given symbols."""
    try:
        ast = c_parser.CParser().parse(f"void adgen_expr(void) {{ ({text}); }}", where)
        node = ast.ext[0].body.block_items[0]
    except Exception:
        raise AdgenError(f"cannot parse the expression '{text}' given with {where}")
    front = CFront(where)
    scope = Scope(front.global_scope)
    for s in symbols:
        scope.names[s.name] = s
    return front.expr(node, scope)


def _through_const_typedef(t):
    """Typedef name t, or its definition when that is const (`typedef const double cdbl;`):
    the output defines the typedef without the const (c_type_text), so the const is spelled
    where the program uses it. A struct with no tag has no other name: the typedef stays."""
    if isinstance(t, ir.Named) and t.target.const and \
            not (isinstance(t.target, ir.Struct) and t.target.sdef.tag is None):
        return t.target
    return t


def _const_elements(t):
    """Type t with its (innermost) elements const: `const mat2` is rows of const double."""
    if isinstance(t.resolved(), ir.Arr):
        arr = t.resolved()
        return ir.Arr(_const_elements(arr.elem), arr.size)
    return ir.with_const(t, True)


@functools.lru_cache(maxsize=None)
def rule_template(text, precision):
    """A rule's partial (C text over x, y, z) as IR, and the parameters x, y, z it reads."""
    t = precision or "double"
    src = (f"{t} adgen_rule({t} x, {t} y, {t} z) {{ return {text}; }}")
    ast = c_parser.CParser().parse(src, "<rule>")
    front = CFront("<rule>")
    body = ast.ext[0].body.block_items[0].expr
    params = [ir.Symbol(name, ir.Prim(t), "param") for name in "xyz"]
    scope = Scope(front.global_scope)
    scope.names.update((p.name, p) for p in params)
    return front.expr(body, scope), params


# the later stages read C text through ir/reader.py
reader.provide(parse_expr_in_scope, rule_template)
