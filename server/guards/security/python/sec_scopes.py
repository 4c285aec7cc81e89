"""Python's name resolution, enough to tell a builtin from a local name.

`open(...)` is the builtin only if no enclosing scope binds `open`; a method named `open` on a
class does not count (class bodies are not visible from their methods), a `def open(...)` at
module level does. Every node is mapped to the scope it is evaluated in.
"""

import ast


START = (0, 0)


def end_of(node):
    return (node.end_lineno or node.lineno, node.end_col_offset or 0)


class Binding:
    """How a name got its value: "import" (path), "alias" (an expression), "param" (annotation) or "other".

    `position` is where the binding takes effect: after the value of `x = value`, so that in
    `open = open` (or `open = wrap(open)`) the right-hand `open` is still the builtin.
    """

    __slots__ = ("kind", "path", "node", "scope", "position")

    def __init__(self, kind, position, path=None, node=None, scope=None):
        self.kind = kind
        self.position = position
        self.path = path
        self.node = node
        self.scope = scope


class Scope:
    __slots__ = ("kind", "parent", "bindings", "global_names", "nonlocal_names")

    def __init__(self, kind, parent):
        self.kind = kind
        self.parent = parent
        self.bindings = {}
        self.global_names = set()
        self.nonlocal_names = set()

    def bind(self, name, binding):
        target = self
        if name in self.global_names:
            target = self.module()
        elif name in self.nonlocal_names:
            return  # the enclosing function's binding already stands for it
        target.bindings.setdefault(name, []).append(binding)

    def module(self):
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, name, position=None):
        """The bindings of the name visible here, or None when it is a builtin (or undefined).

        With a position (of a use in this scope), bindings of this scope that only take effect
        later are ignored; enclosing scopes are complete by the time a nested function runs.
        """
        if name in self.global_names:
            return self.module().bindings.get(name)
        if name in self.bindings:
            bindings = self.bindings[name]
            # A comprehension binds its targets before its element runs, whatever the text order.
            if position is not None and self.kind != "comprehension":
                bindings = [binding for binding in bindings if binding.position <= position]
            if bindings:
                return bindings
        scope = self.parent
        while scope is not None:
            if scope.kind != "class" and name in scope.bindings:
                return scope.bindings[name]
            scope = scope.parent
        return None


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class ScopeBuilder(ast.NodeVisitor):
    def __init__(self):
        self.module_scope = Scope("module", None)
        self.current = self.module_scope
        self.scope_of = {}
        self.star_imports = []

    def visit(self, node):
        self.scope_of[id(node)] = self.current
        return super().visit(node)

    def _visit_all(self, nodes):
        for node in nodes:
            if node is not None:
                self.visit(node)

    def _enter(self, kind, body_visit):
        outer = self.current
        self.current = Scope(kind, outer)
        try:
            body_visit()
        finally:
            self.current = outer

    def _bind_arguments(self, args):
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                self.scope_of[id(arg)] = self.current
                self.current.bind(arg.arg, Binding("param", START, node=arg.annotation, scope=self.current.parent))

    def _visit_function(self, node):
        self._visit_all(node.decorator_list)
        self._visit_all(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
        for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]:
            if arg is not None and arg.annotation is not None:
                self.visit(arg.annotation)
        if node.returns is not None:
            self.visit(node.returns)
        self.current.bind(node.name, Binding("other", (node.lineno, node.col_offset)))

        def body():
            self._bind_arguments(node.args)
            self._visit_all(node.body)

        self._enter("function", body)

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_Lambda(self, node):
        self._visit_all(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])

        def body():
            self._bind_arguments(node.args)
            self.visit(node.body)

        self._enter("function", body)

    def visit_ClassDef(self, node):
        self._visit_all(node.decorator_list + node.bases + [keyword.value for keyword in node.keywords])
        self.current.bind(node.name, Binding("other", (node.lineno, node.col_offset)))
        self._enter("class", lambda: self._visit_all(node.body))

    def _visit_comprehension(self, node):
        first, rest = node.generators[0], node.generators[1:]
        self.visit(first.iter)  # evaluated in the enclosing scope

        def body():
            self.scope_of[id(first)] = self.current
            self.visit(first.target)
            self._visit_all(first.ifs)
            for generator in rest:
                self.visit(generator)
            if isinstance(node, ast.DictComp):
                self._visit_all([node.key, node.value])
            else:
                self.visit(node.elt)

        self._enter("comprehension", body)

    visit_ListComp = _visit_comprehension
    visit_SetComp = _visit_comprehension
    visit_GeneratorExp = _visit_comprehension
    visit_DictComp = _visit_comprehension

    def visit_Name(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.current.bind(node.id, Binding("other", end_of(node)))

    def visit_NamedExpr(self, node):
        self.visit(node.value)
        self.scope_of[id(node.target)] = self.current
        scope = self.current
        while scope.kind == "comprehension":
            scope = scope.parent
        scope.bind(node.target.id, Binding("alias", end_of(node.value), node=node.value, scope=self.current))

    def visit_Assign(self, node):
        self.visit(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.scope_of[id(target)] = self.current
                self.current.bind(target.id, Binding("alias", end_of(node.value), node=node.value, scope=self.current))
            else:
                self.visit(target)

    def visit_AnnAssign(self, node):
        self.visit(node.annotation)
        if node.value is not None:
            self.visit(node.value)
        if isinstance(node.target, ast.Name) and node.value is not None:
            self.scope_of[id(node.target)] = self.current
            self.current.bind(node.target.id, Binding("alias", end_of(node.value), node=node.value, scope=self.current))
        elif isinstance(node.target, ast.Name):
            self.scope_of[id(node.target)] = self.current
            self.current.bind(node.target.id, Binding("param", end_of(node), node=node.annotation, scope=self.current))
        else:
            self.visit(node.target)

    def visit_Import(self, node):
        for alias in node.names:
            parts = tuple(alias.name.split("."))
            if alias.asname:
                self.current.bind(alias.asname, Binding("import", end_of(node), path=parts))
            else:
                self.current.bind(parts[0], Binding("import", end_of(node), path=parts[:1]))

    def visit_ImportFrom(self, node):
        for alias in node.names:
            if alias.name == "*":
                self.star_imports.append(node)
                continue
            name = alias.asname or alias.name
            if node.level or not node.module:
                self.current.bind(name, Binding("other", end_of(node)))  # the project's own package
            else:
                self.current.bind(name, Binding("import", end_of(node), path=tuple(node.module.split(".")) + (alias.name,)))

    def visit_Global(self, node):
        self.current.global_names.update(node.names)

    def visit_Nonlocal(self, node):
        self.current.nonlocal_names.update(node.names)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.current.bind(node.name, Binding("other", (node.lineno, node.col_offset)))
        self.generic_visit(node)

    def visit_MatchAs(self, node):
        if node.name:
            self.current.bind(node.name, Binding("other", (node.lineno, node.col_offset)))
        self.generic_visit(node)

    def visit_MatchStar(self, node):
        if node.name:
            self.current.bind(node.name, Binding("other", (node.lineno, node.col_offset)))

    def visit_MatchMapping(self, node):
        if node.rest:
            self.current.bind(node.rest, Binding("other", (node.lineno, node.col_offset)))
        self.generic_visit(node)


def build_scopes(tree):
    builder = ScopeBuilder()
    builder.visit(tree)
    return builder
