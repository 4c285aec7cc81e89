"""The checks for what a reviewer must see besides capabilities: loops that cannot end
(sec_loops), memory bombs written as constants (sec_sizes), tampering with the assertion helpers
(sec_tampering) and class pollution through a recursive merge (sec_merge). They run over the node
list the capability checks already made, so no further walk of the tree is needed."""

import ast

from sec_loops import LoopChecker
from sec_merge import MergeChecker
from sec_sizes import SizeChecker
from sec_tampering import TamperingChecker

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# Dispatch on the node's type: most nodes concern none of the checks.
_TAMPERING_CANDIDATES = {ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete, ast.Call, ast.ClassDef}
_LOOPS = {ast.While, ast.For}
_FUNCTIONS_WITH_BODIES = {ast.FunctionDef, ast.AsyncFunctionDef}
_SIZED = {ast.BinOp, ast.Call, ast.ListComp, ast.List, ast.Tuple}


def enclosing_class(node, parents):
    """The class whose methods `self` and `cls` in this node belong to, or None."""
    function = None
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, ast.ClassDef):
            return current.name if function is not None else None
        if isinstance(current, _FUNCTIONS):
            if function is not None:
                return None  # a nested function's `self` is not the class's
            function = current
        current = parents.get(id(current))
    return None


def check_review(nodes, resolver, report, parents):
    loops = LoopChecker(resolver, report, parents)
    sizes = SizeChecker(resolver, report)
    tampering = TamperingChecker(resolver, report)
    merges = MergeChecker(resolver, report)
    tampering.collect(node for node in nodes if isinstance(node, ast.ClassDef))
    for node in nodes:
        kind = type(node)
        if kind in _LOOPS:
            loops.check(node)
        elif kind in _FUNCTIONS_WITH_BODIES:
            merges.check(node)
        if kind in _SIZED:
            sizes.check(node)
        if kind in _TAMPERING_CANDIDATES:
            tampering.check(node, lambda node=node: enclosing_class(node, parents))
