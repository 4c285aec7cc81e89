"""The checks for what a reviewer must see besides capabilities: loops that cannot end
(sec_loops), memory bombs written as constants (sec_sizes), tampering with the assertion helpers
(sec_tampering) and class pollution through a recursive merge (sec_merge). One walk over the tree,
with an explicit stack (no recursion on hostile nesting), knowing the class each node is in."""

import ast

from sec_loops import LoopChecker
from sec_merge import MergeChecker
from sec_sizes import SizeChecker
from sec_tampering import TamperingChecker

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def check_review(tree, resolver, report, parents):
    loops = LoopChecker(resolver, report, parents)
    sizes = SizeChecker(resolver, report)
    tampering = TamperingChecker(resolver, report)
    merges = MergeChecker(resolver, report)
    tampering.collect(tree)
    # (node, the class whose methods `self` and `cls` belong to)
    stack = [(tree, None)]
    while stack:
        node, enclosing_class = stack.pop()
        loops.check(node)
        sizes.check(node)
        tampering.check(node, enclosing_class)
        merges.check(node)
        if isinstance(node, ast.ClassDef):
            inner = node.name
        elif isinstance(node, _FUNCTIONS) and not isinstance(parents.get(id(node)), ast.ClassDef):
            inner = None  # a nested function's `self` is not the class's
        else:
            inner = enclosing_class
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
