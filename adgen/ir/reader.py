"""C text read into IR by the stages after the front ends: the partials of the rule table
(rules.py), the arguments of a directive. The C front end does the reading; it sits above
those stages, so it hands its readers over here when it loads (the end of
frontend/c_front.py; adgen/frontend/__init__.py loads it with any front end)."""
from adgen.ir import exprs as X

_READERS = {}


def provide(expr_in_scope, rule_template):
    """The C front end's readers: expr_in_scope(text, symbols, where) -> IR expression;
    rule_template(text, precision) -> (IR expression, its parameters x, y, z)."""
    _READERS["expr"], _READERS["rule"] = expr_in_scope, rule_template


def _reader(kind):
    if kind not in _READERS:
        raise RuntimeError("no C reader: import adgen.frontend before the later stages")
    return _READERS[kind]


def parse_expr_in_scope(text, symbols, where):
    """A C expression over the given symbols (AdgenError when it does not parse)."""
    return _reader("expr")(text, symbols, where)


def parse_rule(text, precision, args):
    """A rule's partial over the given argument expressions."""
    template, params = _reader("rule")(text, precision)
    return X.substitute(template, dict(zip(params, args)))
