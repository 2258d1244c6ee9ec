"""What a C function's body does with the names of its file scope, read from the syntax
(so also for a function adgen cannot translate): which it may set, which it hands on as a
pointer, which it uses at all. The driver refuses, with them, `static` state the output
would keep a copy of; the C front end checks the static function pointers it resolves."""
from pycparser import c_ast

from adgen.rules import F2C_ITEMS


class FileScopeNames(c_ast.NodeVisitor):
    """Names a function body may write: assigned, incremented or having its address taken
    (`written`), or used bare as a value where an array would decay to a pointer
    (`escaped`: an argument, the value of an assignment or initializer, a return value)."""

    def __init__(self, reading=frozenset()):
        self.written, self.escaped, self.declared, self.used = set(), set(), set(), set()
        self.reading = reading      # functions that only read through their pointers

    def visit_ID(self, node):
        self.used.add(node.name)

    @staticmethod
    def root(node):
        """The variable an lvalue is part of (x for x.f[i]); None through a pointer."""
        while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef, c_ast.Cast)):
            if isinstance(node, c_ast.StructRef) and node.type == "->":
                return None
            node = node.name if not isinstance(node, c_ast.Cast) else node.expr
        return node.name if isinstance(node, c_ast.ID) else None

    def bare(self, node):
        """Names used as a whole in a value (`g`, `g + k`, `(double *)g`)."""
        if isinstance(node, c_ast.ID):
            self.escaped.add(node.name)
        elif isinstance(node, c_ast.BinaryOp) and node.op in "+-":
            self.bare(node.left)
            self.bare(node.right)
        elif isinstance(node, c_ast.Cast):
            self.bare(node.expr)
        elif isinstance(node, c_ast.TernaryOp):
            self.bare(node.iftrue)
            self.bare(node.iffalse)

    def visit_Decl(self, node):
        self.declared.add(node.name)
        if node.init is not None and not isinstance(node.init, c_ast.InitList):
            self.bare(node.init)
        self.generic_visit(node)

    def visit_Assignment(self, node):
        self.written.add(self.root(node.lvalue))
        self.bare(node.rvalue)
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if node.op in ("++", "--", "p++", "p--", "&"):
            self.written.add(self.root(node.expr))
        self.generic_visit(node)

    def visit_FuncCall(self, node):
        args = node.args.exprs if node.args is not None else []
        for a in args:
            self.bare(a)
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        if name in self.reading:
            # `pow_dd(&d__1, &c_b4)` reads d__1 and c_b4; `do_lio(&c__5, &c__1, (char *)
            # &x, ...)` reads c__5 and c__1, and writes x in a READ
            for k, a in enumerate(args):
                read = k != F2C_ITEMS.get(name) and isinstance(a, c_ast.UnaryOp) and \
                    a.op == "&"
                self.visit(a.expr if read else a)
            return
        self.generic_visit(node)

    def visit_Return(self, node):
        if node.expr is not None:
            self.bare(node.expr)
        self.generic_visit(node)


def file_scope_sets(f):
    """The file-scope names a function's body may set (or take the address of)."""
    return set(getattr(f, "file_scope_names", ((), (), ()))[0])


def file_scope_names(funcdef, reading=frozenset()):
    """(written, escaped, used): the file-scope names function definition funcdef may
    write, may hand on as a pointer (see FileScopeNames), and names at all; names it
    declares itself are left out (a local of the same name hides the global). `reading`:
    functions that only read through their pointer arguments."""
    v = FileScopeNames(reading)
    v.visit(funcdef)
    own = v.declared - {funcdef.decl.name}
    return (v.written - own - {None}), (v.escaped - own), (v.used - own)
