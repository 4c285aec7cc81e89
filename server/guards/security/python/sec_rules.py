"""The checks, run over every node with the scopes and the resolver. Each finding is reported
where the forbidden name first appears in an expression, so `os.environ.get("X")` is one
finding, "os.environ"."""

import ast

from sec_resolve import position_of
from sec_policy import (
    DANGEROUS_ATTRIBUTES,
    GLOBALS_CALL,
    PATH_OBJECT,
    STAR_FORBIDDEN,
    WHOLE_MODULES,
    capability_rule,
    forbidden,
    is_module_of_interest,
    normalize,
    whole_module,
)

SAFE_YAML_LOADERS = {"SafeLoader", "CSafeLoader", "BaseLoader", "CBaseLoader"}
ATTRIBUTE_FUNCTIONS = {("getattr",), ("hasattr",), ("setattr",), ("delattr",)}
# vars(os)["system"] and dir(os) look into a module as members do; they are checked as such.
MEMBER_VIEWS = {("vars",), ("dir",)}


def display(path):
    if path[0] == GLOBALS_CALL:
        return "globals()" + "".join("." + part for part in path[1:])
    if path[0] == PATH_OBJECT:
        return "Path" + "".join("." + part for part in path[1:])
    return ".".join(path)


class Checker:
    def __init__(self, resolver, reporter):
        self.resolver = resolver
        self.report = reporter.report
        self.allow = reporter
        self.parents = {}
        # Every node once, parents before children; the other checks (sec_review) reuse the list.
        self.nodes = []

    def run(self, tree):
        for node in ast.walk(tree):
            self.nodes.append(node)
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        for node in self.nodes:
            if isinstance(node, ast.Import):
                self.check_import(node)
            elif isinstance(node, ast.ImportFrom):
                self.check_import_from(node)
            elif isinstance(node, ast.Raise):
                self.check_raise(node)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.check_name(node)
            if isinstance(node, ast.Attribute):
                if node.attr in DANGEROUS_ATTRIBUTES:
                    self.report(node, "obfuscation", node.attr)
                if not isinstance(node.ctx, ast.Load):
                    self.check_module_write(node)
            if isinstance(node, ast.Call):
                self.check_call(node)
            if isinstance(node, ast.Subscript):
                self.check_subscript(node)
            if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) and not (isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)):
                self.check_reference(node)

    # -- imports ------------------------------------------------------------------------------

    def report_import(self, node, module, construct):
        key = ".".join(module)
        if self.allow.module_allowed(key) or self.allow.member_of_module_allowed(key):
            return
        self.report(node, WHOLE_MODULES[key], key, construct)

    def check_import(self, node):
        for alias in node.names:
            module = whole_module(normalize(tuple(alias.name.split("."))))
            if module is not None:
                self.report_import(node, module, "import " + alias.name)

    def check_import_from(self, node):
        if node.level or not node.module:
            return  # the project's own package
        module = normalize(tuple(node.module.split(".")))
        for alias in node.names:
            if alias.name == "*":
                if is_module_of_interest(module) and not self.allow.module_allowed(".".join(module)):
                    whole = whole_module(module)
                    rule = WHOLE_MODULES[".".join(whole)] if whole else "obfuscation"
                    self.report(node, rule, ".".join(module), "from %s import *" % node.module)
                continue
            full = normalize(module + (alias.name,))
            whole = whole_module(full)
            if whole is not None and whole == full:
                self.report_import(node, whole, "from %s import %s" % (node.module, alias.name))
                continue
            found = forbidden(full)
            if found is not None:
                self.report(node, found[1], found[0])

    # -- names, attributes, subscripts --------------------------------------------------------

    def check_name(self, node):
        if node.id in ("__builtins__", "__loader__") and self.resolver.scope(node).lookup(node.id, position_of(node)) is None:
            self.report(node, "obfuscation", node.id)

    def check_reference(self, node):
        path = self.resolver.path(node)
        if path is None:
            return
        found = forbidden(path)
        # A name the code bound (`from os import system`, `s = os.system`) was reported where it got its value.
        is_alias = isinstance(node, ast.Name) and self.resolver.scope(node).lookup(node.id, position_of(node)) is not None
        if found is not None and not is_alias:
            inner = self.inner_path(node)
            inner_found = forbidden(inner) if inner is not None else None
            if inner_found is None or inner_found[0] != found[0]:
                self.report(node, found[1], found[0])
        rule = capability_rule(path)
        if rule is not None and self.usage(node) == "value":
            self.report(node, rule, ".".join(path), display(path))

    def inner_path(self, node):
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            return self.resolver.path(node.value)
        if isinstance(node, ast.Call) and node.args and self.resolver.path(node.func) == ("getattr",):
            return self.resolver.path(node.args[0])
        return None

    def usage(self, node):
        """How a capability object is used: "value" means it escapes the analysis."""
        parent = self.parents.get(id(node))
        if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node:
            return "member"
        if isinstance(parent, ast.Call):
            if parent.func is node:
                return "callee"
            callee = self.resolver.path(parent.func) if parent.args and parent.args[0] is node else None
            if callee is not None and (callee in ATTRIBUTE_FUNCTIONS | MEMBER_VIEWS or callee[-1] == "__getattribute__"):
                return "member"
        if isinstance(parent, (ast.Compare, ast.Expr)):
            return "inspect"
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and parent.value is node:
            return "alias"
        return "value"

    def check_subscript(self, node):
        is_namespace = self.resolver.namespace_of(node.value) is not None or self.resolver.path(node.value) == (GLOBALS_CALL,)
        key = self.resolver.const_str(node.slice)
        if key is not None:
            if key in ("__builtins__", "__loader__") and is_namespace:
                self.report(node, "obfuscation", key)
            return
        if is_namespace:
            shown = self.resolver.path(node.value.func)[0] if isinstance(node.value, ast.Call) else "globals"
            self.report(node, "obfuscation", "globals()[]", "%s()[<computed>]" % shown)
            return
        owner = self.resolver.dict_owner(node.value)
        if owner is not None:
            base = self.resolver.path(owner)
            if self.sensitive(base):
                self.report(node, "obfuscation", display(base) + "[]", "vars(%s)[<computed>]" % display(base))
            return
        base = self.resolver.path(node.value)
        if base is not None and capability_rule(base) is not None:
            self.report(node, "obfuscation", display(base) + "[]", display(base) + "[<computed>]")

    @staticmethod
    def sensitive(path):
        """Modules whose members include forbidden ones; getattr(math, name) is fine, getattr(os, name) is not."""
        return path is not None and (capability_rule(path) is not None or path[0] in STAR_FORBIDDEN)

    # -- calls ----------------------------------------------------------------------------------

    def check_call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "format_map"):
            self.check_format_string(node)
        callee = self.resolver.path(node.func)
        if callee is None:
            return
        if callee == ("logging", "basicConfig") and any(keyword.arg == "filename" for keyword in node.keywords):
            self.report(node, "filesystem", "logging.basicConfig", "logging.basicConfig(filename=...)")
        if callee in ATTRIBUTE_FUNCTIONS and len(node.args) >= 2:
            self.check_attribute_function(node, callee[0])
        elif callee in (("importlib", "import_module"), ("__import__",), ("importlib", "__import__")):
            self.check_dynamic_import(node, callee)
        elif callee == (GLOBALS_CALL, "get") and node.args and self.resolver.const_str(node.args[0]) is None:
            self.report(node, "obfuscation", "globals()[]", "globals().get(<computed>)")
        elif callee == ("sqlite3", "connect"):
            if not node.args or self.resolver.const(node.args[0]) != ":memory:":
                self.report(node, "filesystem", "sqlite3.connect")
        elif callee in (("yaml", "load"), ("yaml", "load_all")):
            self.check_yaml(node, callee)

    def check_module_write(self, node):
        """builtins.print = ..., os.getcwd = ...: the Python form of prototype pollution."""
        base = self.resolver.path(node.value)
        if self.sensitive(base):
            self.report(node, "prototype-pollution", display(base), "assignment to %s.%s" % (display(base), node.attr))

    def check_format_string(self, node):
        """"{0.__init__.__globals__}".format(f) walks attributes inside the format string."""
        template = self.resolver.const_str(node.func.value)
        if template is None:
            return
        for attribute in DANGEROUS_ATTRIBUTES:
            if "." + attribute in template or "[" + attribute in template:
                self.report(node, "obfuscation", attribute, "%s in a format string" % attribute)
                return

    def check_attribute_function(self, node, function):
        target, name = node.args[0], self.resolver.const_str(node.args[1])
        if name in DANGEROUS_ATTRIBUTES:
            self.report(node, "obfuscation", name)
        base = self.resolver.path(target)
        if not self.sensitive(base):
            return  # getattr(self, name) on the code's own objects is ordinary Python
        if function in ("setattr", "delattr"):
            self.report(node, "prototype-pollution", function, "%s(%s)" % (function, display(base)))
        elif name is None and function == "getattr":
            self.report(node, "obfuscation", "getattr", "getattr(%s, <computed>)" % display(base))

    def check_dynamic_import(self, node, callee):
        name = self.resolver.const_str(node.args[0]) if node.args else None
        shown = ".".join(callee)
        if name is None:
            self.report(node, "eval-code", shown + "()", "%s(<computed>)" % shown)
            return
        module = whole_module(normalize(tuple(name.split("."))))
        if module is not None:
            self.report_import(node, module, "%s(%r)" % (shown, name))

    def check_yaml(self, node, callee):
        loader = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "Loader"), None)
        loader_path = self.resolver.path(loader) if loader is not None else None
        if loader_path is None or loader_path[-1] not in SAFE_YAML_LOADERS:
            self.report(node, "eval-code", ".".join(callee))

    def check_raise(self, node):
        exception = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if exception is not None and self.resolver.path(exception) == ("SystemExit",):
            self.report(node, "exit-process", "SystemExit", "raise SystemExit")
