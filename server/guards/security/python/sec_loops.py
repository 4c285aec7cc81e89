"""Loops that cannot end: `while True:`, `while 1:`, a `for` over `itertools.count()`, `itertools.cycle(...)`,
`itertools.repeat(x)` or `iter(int, 1)`, with nothing inside that leaves the loop.

A way out is a `break` aimed at this loop (one inside a nested loop leaves only that), `return`, a
`raise` not caught by a catch-all `except` inside the loop, `yield`/`await` (a generator or an event
loop hands control back; `async for`/`async with` await too), `sys.exit()`/`exit()`/`os._exit()`, and
calls that end such loops by raising at the end of their input: `next(it)` (StopIteration) and
`input()` (EOFError). Two idioms count too: a loop inside a `try` that has handlers, whose body makes
a call (the loop ends by an exception, `except queue.Empty:`), and a worker waiting on a queue or an
event (`q.get()` with no positional argument, `event.wait()`). Nested functions and classes are not
looked into: their code runs when called, not in the loop.
"""

import ast

ENDERS = {("sys", "exit"), ("exit",), ("quit",), ("os", "_exit"), ("os", "abort"), ("os", "kill"), ("input",)}
INFINITE_ITERATORS = {("itertools", "count"), ("itertools", "cycle"), ("itertools", "repeat")}
ZERO_VALUES = {("int",): 0, ("float",): 0, ("bool",): False, ("str",): ""}
CATCH_ALL = {("Exception",), ("BaseException",)}
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
LOOPS = (ast.For, ast.While, ast.AsyncFor)
# Nodes one analysis may visit looking for ways out; hostile nesting cannot make it quadratic past this.
SEARCH_BUDGET = 200_000


class LoopChecker:
    def __init__(self, resolver, report, parents):
        self.resolver = resolver
        self.report = report
        self.parents = parents
        self.budget = SEARCH_BUDGET

    def check(self, node):
        if isinstance(node, ast.While):
            if self.truthiness(node.test, 0) is True and not self.has_way_out(node):
                self.report(node, "non-termination", "endless-loop", "while %s with no way out" % self.shown_test(node.test))
        elif isinstance(node, ast.For):
            shown = self.infinite_iterator(node.iter)
            if shown is not None and not self.has_way_out(node):
                self.report(node, "non-termination", "endless-loop", "for … in %s with no way out" % shown)

    @staticmethod
    def shown_test(test):
        text = ast.unparse(test)
        return text if len(text) <= 24 else text[:23] + "…"

    def constant(self, node, depth):
        """The value of a loop condition on every pass. A name counts only when it is bound once in its
        scope: the body runs between two tests, so `running = True` then `running = False` is a variable."""
        if depth > 20:
            return None
        if isinstance(node, ast.Name):
            bindings = self.resolver.scope(node).lookup(node.id)
            if not bindings or len(bindings) != 1 or bindings[0].kind != "alias":
                return None
            return self.constant(bindings[0].node, depth + 1)
        if any(isinstance(inner, ast.Name) for inner in ast.walk(node)):
            return None
        return self.resolver.const(node)

    def truthiness(self, node, depth):
        if depth > 20:
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.truthiness(node.operand, depth + 1)
            return None if inner is None else not inner
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.constant(node.left, depth + 1), self.constant(node.comparators[0], depth + 1)
            if left is None or right is None:
                return None
            op = node.ops[0]
            if isinstance(op, ast.Eq):
                return left == right
            if isinstance(op, ast.NotEq):
                return left != right
            return None
        value = self.constant(node, depth + 1)
        return None if value is None else bool(value)

    def infinite_iterator(self, node):
        if not isinstance(node, ast.Call):
            return None
        callee = self.resolver.path(node.func)
        if callee in INFINITE_ITERATORS:
            if callee == ("itertools", "repeat") and (len(node.args) > 1 or node.keywords):
                return None  # repeat(x, n) ends
            if callee == ("itertools", "cycle") and node.args and self.resolver.const(node.args[0]) in ([], "", b""):
                return None
            return ".".join(callee) + "()"
        if callee == ("iter",) and len(node.args) == 2:
            producer = self.resolver.path(node.args[0])
            sentinel = self.resolver.const(node.args[1])
            if producer in ZERO_VALUES and sentinel is not None and sentinel != ZERO_VALUES[producer]:
                return "iter(%s, …)" % producer[0]
        return None

    def has_way_out(self, loop):
        if self.exception_driven(loop):
            return True
        return any(self.search(child, False, False) for child in loop.body)

    def search(self, node, nested_loop, caught):
        self.budget -= 1
        if self.budget <= 0:
            return False
        if isinstance(node, SCOPES):
            return False
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return True
        if isinstance(node, ast.Raise) and not caught:
            return True
        if isinstance(node, ast.Break):
            return not nested_loop
        if isinstance(node, ast.Call) and self.ends_loop(node):
            return True
        if isinstance(node, ast.If):
            # `if False: break` is no way out: a branch a constant condition never takes is skipped
            taken = self.truthiness(node.test, 0)
            branches = ([node.test] + (node.body if taken is not False else []) + (node.orelse if taken is not True else []))
            return any(self.search(child, nested_loop, caught) for child in branches)
        if isinstance(node, LOOPS):
            # A break in the nested loop's body leaves it; one in its `else:` leaves this loop.
            head = [node.test] if isinstance(node, ast.While) else [node.iter]
            return any(self.search(child, True, caught) for child in node.body) or any(self.search(child, nested_loop, caught) for child in head + node.orelse)
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            catch_all = any(handler.type is None or self.resolver.path(handler.type) in CATCH_ALL for handler in node.handlers)
            inside = any(self.search(child, nested_loop, caught or catch_all) for child in node.body)
            rest = node.handlers + node.orelse + node.finalbody
            return inside or any(self.search(child, nested_loop, caught) for child in rest)
        return any(self.search(child, nested_loop, caught) for child in ast.iter_child_nodes(node))

    def ends_loop(self, call):
        callee = self.resolver.path(call.func)
        if callee in ENDERS:
            return True
        if callee == ("next",) and len(call.args) == 1:
            return True  # StopIteration at the end
        if isinstance(call.func, ast.Attribute) and not call.args:
            return call.func.attr in ("get", "wait")  # a worker blocked on a queue or an event
        return False

    def exception_driven(self, loop):
        """`try: while True: item = queue.get_nowait() ... except queue.Empty:`."""
        inside_try = False
        child, parent = loop, self.parents.get(id(loop))
        while parent is not None and not isinstance(parent, SCOPES):
            if isinstance(parent, ast.Try) and parent.handlers and any(child is statement for statement in parent.body):
                inside_try = True
                break
            child, parent = parent, self.parents.get(id(parent))
        if not inside_try:
            return False
        for statement in loop.body:
            for node in ast.walk(statement):
                if isinstance(node, ast.Call):
                    return True
        return False
