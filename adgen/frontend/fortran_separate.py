"""Separate module procedures written without their dummies: `module procedure f ... end
procedure f` in a submodule (or in the module itself), the dummies, their declarations
and the result being those of f's interface in the module.

fparser does not read such a body. The source is given to it with the body written as a
subroutine `f` without dummies (same lines), and the subprogram marked; the front end then
rebuilds it from its interface: the interface's header (`module function f(x) result(y)`),
the interface's declarations before the body's own, the body's statements."""
import copy
import re

from adgen.errors import AdgenError
from adgen.frontend.fortran_helpers import (copied_tree, f2003, head_stmt, line_of,
                                            name_of, walk_nodes, walk_type)
from adgen.frontend.fortran_places import statement_item, statement_loc

# (after the blanks and the label that may start the statement)
_BODY_HEAD = re.compile(r"(?i)^(\s*(?:\d+\s+)?)module(\s+)procedure(\s+)(\w+)(\s*(?:!.*)?)$")
_BODY_END = re.compile(r"(?i)^(\s*(?:\d+\s+)?)end(\s*)procedure\b(.*)$")
_INTERFACE = re.compile(r"(?i)^\s*(abstract\s+)?interface\b(?!\s*=)")
_END_INTERFACE = re.compile(r"(?i)^\s*end\s*interface\b")


def rewrite_bodies(text):
    """The source with each `module procedure f` body (outside interface blocks, where
    `module procedure` names the specifics of a generic) written `subroutine f`, its
    `end procedure` `end subroutine`; and the lines of the bodies' headers."""
    out, heads, interfaces, open_bodies = [], set(), 0, 0
    for number, line in enumerate(text.split("\n"), 1):
        if _INTERFACE.match(line):
            interfaces += 1
        elif _END_INTERFACE.match(line):
            interfaces = max(0, interfaces - 1)
        elif interfaces == 0:
            m = _BODY_HEAD.match(line)
            if m:
                line = f"{m.group(1)}subroutine{m.group(3)}{m.group(4)}{m.group(5)}"
                heads.add(number)
                open_bodies += 1
            elif open_bodies:
                m = _BODY_END.match(line)
                if m:
                    line = f"{m.group(1)}end{m.group(2) or ' '}subroutine{m.group(3)}"
                    open_bodies -= 1
        out.append(line)
    return "\n".join(out), heads


def mark_bodies(tree, heads, path):
    """Mark the subprograms rewrite_bodies wrote (by their headers' lines); one outside the
    procedures of a module or submodule is an error (it has no interface to take)."""
    F = f2003()
    for unit in walk_type(tree, F.Subroutine_Subprogram):
        line = line_of(head_stmt(unit))
        if line not in heads:
            continue
        unit.adgen_separate_body = True
        part = getattr(unit, "parent", None)
        owner = getattr(part, "parent", None)
        if not isinstance(part, F.Module_Subprogram_Part) or \
                type(owner).__name__ not in ("Module", "Submodule"):
            raise AdgenError(f"'module procedure {name_of(head_stmt(unit).items[1])}' is "
                             "the body of a separate module procedure: it belongs in the "
                             "module or a submodule of the module declaring its interface",
                             statement_loc(path, head_stmt(unit)))


def is_separate_body(unit):
    return getattr(unit, "adgen_separate_body", False)


def from_interface(unit, module, path):
    """The subprogram a marked body stands for, built from the interface of its name that
    `module` declares with the MODULE prefix (its lines those of the body's header)."""
    F = f2003()
    head = head_stmt(unit)
    name = name_of(head.items[1])
    line, reader = line_of(head), statement_item(head).reader
    interface = module.interface_bodies.get(name)
    if interface is None or not _has_module_prefix(head_stmt(interface)):
        raise AdgenError(f"'module procedure {name}': module '{module.name}' declares no "
                         f"interface `module subroutine {name}` or `module function "
                         f"{name}` for it", statement_loc(path, head))
    copied = copied_tree(interface)
    for node in walk_nodes(copied):
        item = getattr(node, "item", None)
        if item is not None and getattr(item, "span", None):
            node.item = copy.copy(item)
            # (at the body's line, in the body's file, which may not be the module's)
            node.item.span, node.item.reader = (line, line), reader
    new_head = next(c for c in copied.children if isinstance(c, (F.Subroutine_Stmt,
                                                                  F.Function_Stmt)))
    new_end = copied.children[-1]
    body_end = unit.children[-1]
    if isinstance(body_end, F.End_Subroutine_Stmt):
        new_end.item = body_end.item    # (its line, and its label, which a GOTO may name)
    declared = [c for c in copied.children if isinstance(c, F.Specification_Part)]
    own = [c for c in unit.children if isinstance(c, F.Specification_Part)]
    rest = [c for c in unit.children
            if c is not head and not isinstance(c, (F.Specification_Part,
                                                    F.End_Subroutine_Stmt))]
    subprogram = _empty_subprogram(new_head)
    subprogram.content = [new_head]
    if declared or own:
        spec = copy.copy((own or declared)[0])
        spec.content = _merged_specification(declared[0].children if declared else [],
                                             own[0].children if own else [])
        subprogram.content.append(spec)
    subprogram.content += rest + [new_end]
    subprogram.parent = unit.parent
    for c in subprogram.content:
        c.parent = subprogram
    siblings = unit.parent.content
    siblings[siblings.index(unit)] = subprogram
    return subprogram


def _empty_subprogram(head):
    """An empty subprogram node of the kind the header opens."""
    F = f2003()
    cls = F.Function_Subprogram if isinstance(head, F.Function_Stmt) else \
        F.Subroutine_Subprogram
    node = object.__new__(cls)      # (fparser's __new__ parses a string)
    node.string, node.item, node.content, node.parent = None, None, [], None
    return node


def _merged_specification(declared, own):
    """The interface's specification (without IMPORT: the body sees its module by host
    association) and the body's: USE statements first, then the body's implicit typing
    (else the interface's), then the interface's declarations and the body's."""
    F = f2003()

    def split(items):
        uses = [c for c in items if isinstance(c, F.Use_Stmt)]
        implicit = [c for c in items if isinstance(c, (F.Implicit_Part, F.Implicit_Stmt))]
        rest = [c for c in items if not isinstance(c, (F.Use_Stmt, F.Implicit_Part,
                                                       F.Implicit_Stmt, F.Import_Stmt))]
        return uses, implicit, rest
    d_uses, d_implicit, d_rest = split(declared)
    o_uses, o_implicit, o_rest = split(own)
    return d_uses + o_uses + (o_implicit or d_implicit) + d_rest + o_rest


def _has_module_prefix(stmt):
    F = f2003()
    return any(str(p).upper() == "MODULE" for p in walk_type(stmt, F.Prefix_Spec))
