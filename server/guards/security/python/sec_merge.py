"""Class pollution, Python's prototype pollution, through a recursive merge.

A function that loops over keys from its input (`for k in src`, `for k, v in src.items()`) and, with
such a key `k`, both writes an attribute (`setattr(dst, k, …)`, `dst.__dict__[k] = …`) and recurses into
it (calling itself or a merge helper with `getattr(dst, k)`, `dst.__dict__[k]` or `vars(dst)[k]`). With
keys such as "__class__", "__init__", "__globals__" the recursion walks from an object to its class,
its functions' globals and the modules they import, and the write replaces what it finds there.

It passes when the function checks the key: `k.startswith("_")`, a comparison with a dunder name
(`k == "__class__"`), `k in ALLOWED` / `k not in BLOCKED`. `for k, v in kwargs.items(): setattr(self, k, v)`
without recursion changes only that object and passes.
"""

import ast
import re

MERGE_HELPER = re.compile(r"merge|extend|update|apply|assign|populate", re.IGNORECASE)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
KEY_TESTS = {"startswith", "endswith", "isidentifier", "match", "fullmatch"}


def _same(a, b):
    return ast.dump(a) == ast.dump(b)


def _walk_local(node):
    """ast.walk that does not enter nested functions or classes."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, SCOPES):
                stack.append(child)


class MergeChecker:
    def __init__(self, resolver, report):
        self.resolver = resolver
        self.report = report

    def check(self, function):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return
        for loop in _walk_local(function):
            if isinstance(loop, (ast.For, ast.AsyncFor)):
                key = self.key_of(loop)
                if key is not None:
                    self.check_loop(function, loop, key)

    @staticmethod
    def key_of(loop):
        target = loop.target
        if isinstance(target, ast.Name):
            return target.id
        if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            return target.elts[0].id  # for k, v in src.items()
        return None

    def check_loop(self, function, loop, key):
        writes, recursed = [], []
        for node in (n for statement in loop.body for n in _walk_local(statement)):
            if isinstance(node, ast.Call):
                callee = self.resolver.path(node.func)
                if callee == ("setattr",) and len(node.args) == 3 and self.is_key(node.args[1], key):
                    writes.append((node, node.args[0], "setattr(…, %s)" % key[:24]))
                elif self.is_merge_call(node, function.name):
                    recursed.extend(self.recursed_targets(node, key))
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    owner = self.dict_owner(target, key)
                    if owner is not None:
                        writes.append((target, owner, "__dict__[%s]" % key[:24]))
        for node, owner, shown in writes:
            if any(_same(owner, target) for target in recursed) and not self.has_guard(function, key):
                self.report(node, "prototype-pollution", "recursive-merge", "recursive merge via " + shown)
                return

    @staticmethod
    def is_key(node, key):
        return isinstance(node, ast.Name) and node.id == key

    def is_merge_call(self, call, own_name):
        func = call.func
        name = func.id if isinstance(func, ast.Name) else (func.attr if isinstance(func, ast.Attribute) else None)
        return name is not None and (name == own_name or MERGE_HELPER.search(name) is not None)

    def dict_owner(self, node, key):
        """`obj.__dict__[k]` or `vars(obj)[k]`: the obj."""
        if not isinstance(node, ast.Subscript) or not self.is_key(node.slice, key):
            return None
        return self.resolver.dict_owner(node.value)

    def recursed_targets(self, call, key):
        for argument in list(call.args) + [keyword.value for keyword in call.keywords]:
            for node in _walk_local(argument):
                if isinstance(node, ast.Call) and self.resolver.path(node.func) == ("getattr",) and len(node.args) >= 2 and self.is_key(node.args[1], key):
                    yield node.args[0]
                owner = self.dict_owner(node, key)
                if owner is not None:
                    yield owner

    def has_guard(self, function, key):
        for node in ast.walk(function):
            if isinstance(node, ast.Compare):
                operands = [node.left] + node.comparators
                if not any(self.is_key(operand, key) for operand in operands):
                    continue
                if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and self.is_key(node.left, key):
                    return True
                if any(isinstance(operand, ast.Constant) and isinstance(operand.value, str) and operand.value.startswith("_") for operand in operands):
                    return True
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                uses_key = self.is_key(node.func.value, key) or any(self.is_key(argument, key) for argument in node.args)
                if uses_key and node.func.attr in KEY_TESTS:
                    return True
        return False
