"""Turns expressions into paths: what `os.system`, `getattr(__import__("o" + "s"), "system")`
or `s` after `s = os.system` denote. Plain values resolve to None."""

import ast

from sec_constants import Folder
from sec_policy import BUILTIN_NAMES, GLOBALS_CALL, PATH_CONSTRUCTORS, PATH_OBJECT, PATH_RETURNING, normalize

def position_of(node):
    return (node.lineno, node.col_offset)


NAMESPACE_CALLS = {("globals",), ("locals",), ("vars",)}
REEXPORTED_MODULES = {"os": ("os",), "_os": ("os",), "sys": ("sys",), "_sys": ("sys",), "subprocess": ("subprocess",), "builtins": ("builtins",), "__builtins__": ("builtins",)}


class Resolver:
    def __init__(self, scopes):
        self.scope_of = scopes.scope_of
        self.module_scope = scopes.module_scope
        self.folder = Folder(self)
        self._in_progress = set()

    def const(self, node):
        return self.folder.fold(node)

    def const_str(self, node):
        value = self.const(node)
        return value if isinstance(value, str) else None

    def scope(self, node):
        return self.scope_of.get(id(node), self.module_scope)

    def alias_of(self, name_node):
        """The one expression a name was assigned, for constant folding; None otherwise."""
        bindings = self.scope(name_node).lookup(name_node.id, position_of(name_node))
        if bindings and len(bindings) == 1 and bindings[0].kind == "alias":
            return bindings[0].node
        return None

    def path(self, node):
        key = id(node)
        if node is None or key in self._in_progress:
            return None
        self._in_progress.add(key)
        try:
            return self._path(node)
        finally:
            self._in_progress.discard(key)

    def name_path(self, name, scope, position=None):
        bindings = scope.lookup(name, position)
        if bindings is None:
            # A builtin; a name nothing defines is an error at run time, not a module.
            return normalize((name,)) if name in BUILTIN_NAMES else None
        for binding in bindings:
            path = self._binding_path(binding)
            if path is not None:
                return path
        return None

    def _binding_path(self, binding):
        if binding.kind == "import":
            return normalize(binding.path)
        if binding.kind == "alias":
            return self.path(binding.node)
        if binding.kind == "param" and binding.node is not None:
            # def load(p: Path): p.read_text() reads a file whoever passes p
            annotation = self.path(binding.node)
            return (PATH_OBJECT,) if annotation in PATH_CONSTRUCTORS else None
        return None

    def join(self, base, attribute):
        if base is None:
            return None
        if base[0] == PATH_OBJECT and attribute in PATH_RETURNING:
            return base
        if base[0] not in (PATH_OBJECT, GLOBALS_CALL) and attribute in REEXPORTED_MODULES:
            return REEXPORTED_MODULES[attribute]  # shutil.os, logging.sys, os.path.os are the modules themselves
        return normalize(base + (attribute,))

    def _path(self, node):
        if isinstance(node, ast.Name):
            return self.name_path(node.id, self.scope(node), position_of(node))
        if isinstance(node, ast.Attribute):
            return self.join(self.path(node.value), node.attr)
        if isinstance(node, ast.Subscript):
            return self._subscript_path(node)
        if isinstance(node, ast.Call):
            return self._call_path(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return (PATH_OBJECT,) if self.path(node.left) == (PATH_OBJECT,) else None
        if isinstance(node, ast.NamedExpr):
            return self.path(node.value)
        return None

    def namespace_of(self, node):
        """For globals() / locals() / vars() without arguments: the scope whose names they hold."""
        if isinstance(node, ast.Call) and not node.args and not node.keywords:
            callee = self.path(node.func)
            if callee == ("globals",):
                return self.module_scope
            if callee in NAMESPACE_CALLS:
                return self.scope(node)
        return None

    def _subscript_path(self, node):
        key = self.const_str(node.slice)
        if key is None:
            return None
        namespace = self.namespace_of(node.value)
        if namespace is not None:
            return self.name_path(key, namespace)  # globals()["eval"] is eval
        owner = self.dict_owner(node.value)
        if owner is not None:
            return self.join(self.path(owner), key)  # vars(os)["system"], os.__dict__["system"]
        base = self.path(node.value)
        if base == ("builtins",):
            return normalize((key,))
        if base == (GLOBALS_CALL,):
            return self.name_path(key, self.module_scope)
        if base == ("sys", "modules"):
            return normalize(tuple(key.split(".")))
        return None

    def dict_owner(self, node):
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return node.value
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and self.path(node.func) == ("vars",):
            return node.args[0]
        return None

    def _call_path(self, node):
        callee = self.path(node.func)
        if callee is None:
            return None
        first = node.args[0] if node.args else None
        if callee in (("__import__",), ("importlib", "__import__")):
            name = self.const_str(first)
            if name is None:
                return None
            parts = tuple(name.split("."))
            has_fromlist = len(node.args) > 3 or any(keyword.arg == "fromlist" for keyword in node.keywords)
            return normalize(parts if has_fromlist else parts[:1])
        if callee == ("importlib", "import_module"):
            name = self.const_str(first)
            return None if name is None else normalize(tuple(name.split(".")))
        if callee == ("getattr",) and len(node.args) >= 2:
            name = self.const_str(node.args[1])
            return None if name is None else self.join(self.path(first), name)
        if callee[-1] == "__getattribute__" and node.args:
            # os.__getattribute__("system"), object.__getattribute__(os, "system")
            owner, name_node = (callee[:-1], first) if len(node.args) == 1 else (self.path(first), node.args[1])
            name = self.const_str(name_node)
            return None if name is None or not owner else self.join(owner, name)
        if callee == ("globals",) and not node.args:
            return (GLOBALS_CALL,)
        if callee == (GLOBALS_CALL, "get") and first is not None:
            name = self.const_str(first)
            return None if name is None else self.name_path(name, self.module_scope)
        if callee in PATH_CONSTRUCTORS or callee == (PATH_OBJECT,):
            return (PATH_OBJECT,)
        if len(callee) == 3 and callee[:2] in PATH_CONSTRUCTORS and callee[2] in PATH_RETURNING:
            return (PATH_OBJECT,)  # Path.home(), Path.cwd()
        return None
