"""Memory bombs written as constants: `'a' * 10**10`, `[0] * 10**9`, `bytearray(10**10)`, `bytes(10**11)`,
`b'x' * (1 << 40)`, `list(range(10**12))`, `[x for x in range(10**12)]`, `'x'.ljust(10**10)`,
`numpy.zeros(10**10)`, and nested products (`('a' * 10**5) * 10**5`).

Sizes are folded with bounded integer arithmetic: a result past 2**256 is HUGE (infinity) without
being computed, so `10**10**10` costs one comparison, and a step budget bounds names defined from
names. The innermost allocation that is too big is the one reported; a size from a parameter passes.
"""

import ast

from sec_constants import MAX_DEPTH

# Same threshold as the JavaScript analyser (memory-exhaustion.ts).
MAX_CONSTANT_ALLOCATION_BYTES = 256 * 1024 * 1024
HUGE = float("inf")
LIMIT_BITS = 256
MAX_STEPS = 2_000
POINTER = 8  # a list slot
SEQUENCE_BUILDERS = {("list",), ("tuple",), ("set",), ("frozenset",), ("sorted",)}
PAD_METHODS = {"ljust", "rjust", "center", "zfill"}
_SIZED = (ast.BinOp, ast.Call, ast.ListComp, ast.List, ast.Tuple)
NUMPY_ALLOCATORS = {("numpy", "zeros"), ("numpy", "ones"), ("numpy", "empty"), ("numpy", "full")}


def _bounded(value):
    if isinstance(value, int) and value.bit_length() > LIMIT_BITS:
        return HUGE if value > 0 else -HUGE
    return value


class SizeChecker:
    def __init__(self, resolver, report):
        self.resolver = resolver
        self.report = report
        self.steps = MAX_STEPS

    def check(self, node):
        if not isinstance(node, _SIZED):
            return
        self.steps = MAX_STEPS  # per node: names defined from names cannot make one question exponential
        allocation = self.allocation(node)
        if allocation is None or not allocation[1] > MAX_CONSTANT_ALLOCATION_BYTES:
            return
        for child in ast.iter_child_nodes(node):
            inner = self.allocation(child) if isinstance(child, _SIZED) else None
            if inner is not None and inner[1] > MAX_CONSTANT_ALLOCATION_BYTES:
                return  # reported there
        self.report(node, "memory-exhaustion", "large-allocation", "%s of %s" % (allocation[0], format_bytes(allocation[1])))

    # -- numbers -----------------------------------------------------------------------------------

    def number(self, node):
        return self._number(node, 0)

    def _number(self, node, depth):
        self.steps -= 1
        if node is None or depth > MAX_DEPTH or self.steps <= 0:
            return None
        number = lambda child: self._number(child, depth + 1)  # noqa: E731
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, int) and not isinstance(node.value, bool) else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = number(node.operand)
            return None if value is None else (-value if isinstance(node.op, ast.USub) else value)
        if isinstance(node, ast.BinOp):
            left = number(node.left)
            right = None if left is None else number(node.right)
            return None if right is None else _arithmetic(node.op, left, right)
        if isinstance(node, ast.Name):
            value_node = self.resolver.alias_of(node)
            return None if value_node is None else number(value_node)
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and self.resolver.path(node.func) == ("int",):
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, float):
                return _bounded(int(argument.value)) if argument.value < 2.0 ** LIMIT_BITS else HUGE
            return number(argument)
        return None

    # -- allocations ---------------------------------------------------------------------------------

    def allocation(self, node, depth=0):
        """(kind, bytes) when the node allocates a size the code fixes, else None."""
        self.steps -= 1
        if depth > MAX_DEPTH or self.steps <= 0:
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for sequence, count in ((node.left, node.right), (node.right, node.left)):
                shape = self.sequence(sequence, depth + 1)
                times = self.number(count) if shape is not None else None
                if times is not None:
                    kind, length, width = shape
                    return ("%s * n" % kind, _product(length, times) * width)
            return None
        if isinstance(node, ast.ListComp):
            shape = self.sequence(node, depth + 1)
            if shape is None:
                return None
            # [[0] * 10**5 for _ in range(10**5)]: every element is an allocation of its own
            element = self.allocation(node.elt, depth + 1) if isinstance(node.elt, _SIZED) else None
            each = POINTER + (element[1] if element is not None else 0)
            return ("list comprehension", _product(shape[1], each))
        if isinstance(node, (ast.List, ast.Tuple)) and any(isinstance(element, ast.Starred) for element in node.elts):
            shape = self.sequence(node, depth + 1)
            return None if shape is None else ("[*range(n)]", shape[1] * POINTER)
        if not isinstance(node, ast.Call):
            return None
        callee = self.resolver.path(node.func)
        if callee in (("bytes",), ("bytearray",)) and len(node.args) == 1:
            size = self.number(node.args[0])
            if size is None:
                range_length = self.range_length(node.args[0])
                size = range_length
            return None if size is None else ("%s(n)" % callee[0], size)
        if callee in SEQUENCE_BUILDERS and len(node.args) == 1:
            length = self.range_length(node.args[0])
            return None if length is None else ("%s(range(n))" % callee[0], length * POINTER)
        if callee in NUMPY_ALLOCATORS and node.args:
            shape = self.shape(node.args[0])
            return None if shape is None else (".".join(callee), shape * 8)
        if isinstance(node.func, ast.Attribute) and node.func.attr in PAD_METHODS and node.args:
            width = self.number(node.args[0])
            return None if width is None else ("str.%s" % node.func.attr, width)
        return None

    def sequence(self, node, depth):
        """(kind, length, bytes per item) of a str, bytes or list expression of known length."""
        self.steps -= 1
        if depth > MAX_DEPTH or self.steps <= 0:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            return ("bytes" if isinstance(node.value, bytes) else "str", len(node.value), 1)
        if isinstance(node, (ast.List, ast.Tuple)):
            length = 0
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    inner = self.range_length(element.value)
                    if inner is None:
                        return None
                    length += inner
                else:
                    length += 1
            return ("list" if isinstance(node, ast.List) else "tuple", length, POINTER)
        if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs:
            length = self.range_length(node.generators[0].iter)
            return None if length is None else ("list", length, POINTER)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for sequence, count in ((node.left, node.right), (node.right, node.left)):
                shape = self.sequence(sequence, depth + 1)
                times = self.number(count) if shape is not None else None
                if times is not None:
                    return (shape[0], _product(shape[1], times), shape[2])
            return None
        if isinstance(node, ast.Call):
            allocation = self.allocation(node, depth + 1)
            if allocation is not None and allocation[0] in ("bytes(n)", "bytearray(n)"):
                return (allocation[0][:-3], allocation[1], 1)
            if allocation is not None and allocation[0].startswith("str."):
                return ("str", allocation[1], 1)
            if allocation is not None and allocation[0] == "list(range(n))":
                return ("list", allocation[1] // POINTER if allocation[1] != HUGE else HUGE, POINTER)
        if isinstance(node, ast.Name):
            value_node = self.resolver.alias_of(node)
            return None if value_node is None else self.sequence(value_node, depth + 1)
        return None

    def range_length(self, node):
        if not isinstance(node, ast.Call) or node.keywords or self.resolver.path(node.func) != ("range",) or not 1 <= len(node.args) <= 3:
            return None
        values = [self.number(argument) for argument in node.args]
        if any(value is None for value in values):
            return None
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (values[0], values[1], values[2] if len(values) == 3 else 1)
        if step in (0, HUGE, -HUGE) or start in (HUGE, -HUGE):
            return None if step == 0 else 0
        length = (stop - start) / step
        return length if length > 0 else 0

    def shape(self, node):
        if isinstance(node, (ast.Tuple, ast.List)):
            total = 1
            for element in node.elts:
                size = self.number(element)
                if size is None:
                    return None
                total = _product(total, size)
            return total
        return self.number(node)


def _product(a, b):
    if a == 0 or b == 0:
        return 0
    return _arithmetic(ast.Mult(), a, b)


def _arithmetic(op, left, right):
    """+, -, *, **, <<, //: exact on small ints, HUGE once a result would pass 2**256."""
    if isinstance(left, float) or isinstance(right, float):
        if isinstance(op, ast.Mult):
            if left == 0 or right == 0:
                return 0
            return left * right
        if isinstance(op, ast.Add):
            return left + right if not (left == HUGE and right == -HUGE) else None
        if isinstance(op, ast.Pow):
            return HUGE if left > 1 and right > 0 else None
        if isinstance(op, ast.LShift):
            return HUGE if left > 0 else None
        return None
    if isinstance(op, ast.Add):
        return _bounded(left + right)
    if isinstance(op, ast.Sub):
        return _bounded(left - right)
    if isinstance(op, ast.Mult):
        if left.bit_length() + right.bit_length() > LIMIT_BITS + 1:
            return HUGE if (left > 0) == (right > 0) else -HUGE
        return _bounded(left * right)
    if isinstance(op, ast.Pow):
        if right < 0:
            return None
        if left in (0, 1) or right == 0:
            return left ** min(right, 1)
        if right * (abs(left).bit_length() - 1) > LIMIT_BITS:
            return HUGE if left > 0 or right % 2 == 0 else -HUGE
        return _bounded(left ** right)
    if isinstance(op, ast.LShift):
        if right < 0:
            return None
        if right > LIMIT_BITS:
            return 0 if left == 0 else (HUGE if left > 0 else -HUGE)
        return _bounded(left << right)
    if isinstance(op, ast.FloorDiv) and right != 0:
        return left // right
    return None


UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def format_bytes(size):
    """"~9.3 GiB", as the JavaScript analyser writes it; Infinity and sizes past 2**70 are "more than 1 ZiB"."""
    if size == HUGE or size >= 2 ** 70:
        return "more than 1 ZiB"
    value = size / 1024
    unit = 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value /= 1024
        unit += 1
    shown = str(round(value)) if value >= 100 else ("%.2g" % value)
    return "~%s %s" % (shown, UNITS[unit])
