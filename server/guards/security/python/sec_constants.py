"""Constant folding for the names obfuscated code assembles.

"sys" + "tem", "".join(map(chr, [111, 115])), base64.b64decode("b3M=").decode(),
codecs.decode("flfgrz", "rot13"), "metsys"[::-1]: the folded value is what getattr, __import__
and friends really receive.
"""

import ast
import base64
import binascii
import codecs

MAX_DEPTH = 40
MAX_LENGTH = 100_000

_DECODERS = {
    ("base64", "b64decode"): base64.b64decode,
    ("base64", "standard_b64decode"): base64.standard_b64decode,
    ("base64", "urlsafe_b64decode"): base64.urlsafe_b64decode,
    ("base64", "b32decode"): base64.b32decode,
    ("base64", "b16decode"): base64.b16decode,
    ("base64", "a85decode"): base64.a85decode,
    ("base64", "b85decode"): base64.b85decode,
    ("binascii", "unhexlify"): binascii.unhexlify,
    ("binascii", "a2b_hex"): binascii.a2b_hex,
    ("binascii", "a2b_base64"): binascii.a2b_base64,
}
_CODECS = {"rot13", "rot_13", "base64", "base_64", "hex", "utf-8", "utf8", "ascii", "latin-1", "latin1", "unicode_escape"}


def _small(value):
    if isinstance(value, (str, bytes)) and len(value) > MAX_LENGTH:
        return None
    return value


class Folder:
    """Folds expressions to str, bytes, int, bool or lists of them; None when not constant."""

    def __init__(self, resolver):
        self.resolver = resolver

    def fold(self, node, env=None, depth=0):
        if node is None or depth > MAX_DEPTH:
            return None
        try:
            return _small(self._fold(node, env or {}, depth))
        except (ValueError, TypeError, binascii.Error, UnicodeError, OverflowError, IndexError, KeyError, LookupError):
            return None

    def _fold(self, node, env, depth):
        fold = lambda child, scope=env: self.fold(child, scope, depth + 1)  # noqa: E731
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes, int, bool)):
            return node.value
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    if value.format_spec is not None or value.conversion != -1:
                        return None
                    inner = fold(value.value)
                    if inner is None:
                        return None
                    parts.append(str(inner))
                else:
                    parts.append(value.value)
            return "".join(parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = fold(node.operand)
            if not isinstance(operand, int) or isinstance(operand, bool):
                return None
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            left, right = fold(node.left), fold(node.right)
            if left is None or right is None:
                return None
            if isinstance(node.op, ast.Add) and type(left) is type(right) and not isinstance(left, bool):
                return left + right
            if isinstance(node.op, ast.Mult) and isinstance(right, int) and isinstance(left, (str, bytes, list)) and 0 <= right * len(left) <= MAX_LENGTH:
                return left * right
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            values = [fold(element) for element in node.elts]
            return None if any(value is None for value in values) else values
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            value_node = self.resolver.alias_of(node)
            return None if value_node is None else self.fold(value_node, {}, depth + 1)
        if isinstance(node, ast.Subscript):
            return self._fold_subscript(node, fold)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self._fold_comprehension(node, env, depth)
        if isinstance(node, ast.Call):
            return self._fold_call(node, fold)
        return None

    def _fold_subscript(self, node, fold):
        value = fold(node.value)
        if not isinstance(value, (str, bytes, list)):
            return None
        if isinstance(node.slice, ast.Slice):
            bounds = [None if part is None else fold(part) for part in (node.slice.lower, node.slice.upper, node.slice.step)]
            if any(part is not None and not isinstance(part, int) for part in bounds):
                return None
            return value[slice(*bounds)]
        index = fold(node.slice)
        return value[index] if isinstance(index, int) else None

    def _fold_comprehension(self, node, env, depth):
        # ''.join(chr(c) for c in [111, 115]) and its list form; one generator, no conditions
        if len(node.generators) != 1:
            return None
        generator = node.generators[0]
        if generator.ifs or not isinstance(generator.target, ast.Name):
            return None
        items = self.fold(generator.iter, env, depth + 1)
        if not isinstance(items, (list, str, bytes)):
            return None
        values = []
        for item in items:
            value = self.fold(node.elt, dict(env, **{generator.target.id: item}), depth + 1)
            if value is None:
                return None
            values.append(value)
        return values

    def _fold_call(self, node, fold):
        if node.keywords:
            return None
        callee = self.resolver.path(node.func)
        if callee == ("map",) and len(node.args) == 2 and self.resolver.path(node.args[0]) == ("chr",):
            items = fold(node.args[1])
            return [chr(item) for item in items] if isinstance(items, list) and all(isinstance(i, int) for i in items) else None
        args = [fold(arg) for arg in node.args]
        if any(arg is None for arg in args):
            return None
        if callee == ("chr",) and len(args) == 1 and isinstance(args[0], int):
            return chr(args[0])
        if callee == ("str",) and len(args) == 1:
            return args[0] if isinstance(args[0], str) else str(args[0])
        if callee in (("bytes",), ("bytearray",)) and len(args) == 1 and isinstance(args[0], list) and all(isinstance(a, int) for a in args[0]):
            return bytes(args[0])
        decoder = _DECODERS.get(callee)
        if decoder is not None and len(args) == 1 and isinstance(args[0], (str, bytes)):
            return decoder(args[0])
        if callee == ("codecs", "decode") and len(args) == 2 and isinstance(args[1], str) and args[1].lower() in _CODECS:
            return codecs.decode(args[0], args[1])
        if callee == ("bytes", "fromhex") and len(args) == 1 and isinstance(args[0], str):
            return bytes.fromhex(args[0])
        if isinstance(node.func, ast.Attribute):
            receiver = fold(node.func.value)
            if receiver is not None:
                return _method(receiver, node.func.attr, args)
        return None


def _method(receiver, name, args):
    if isinstance(receiver, list):
        return list(reversed(receiver)) if name == "reverse" and not args else None
    if not isinstance(receiver, (str, bytes)):
        return None
    if name == "join" and len(args) == 1 and isinstance(args[0], list) and all(type(item) is type(receiver) for item in args[0]):
        return receiver.join(args[0])
    if name == "decode" and isinstance(receiver, bytes) and len(args) <= 1:
        return receiver.decode(*args)
    if name == "encode" and isinstance(receiver, str) and len(args) <= 1:
        return receiver.encode(*args)
    if name in ("lower", "upper", "strip", "lstrip", "rstrip", "swapcase", "title", "capitalize") and not args:
        return getattr(receiver, name)()
    if name == "replace" and len(args) == 2 and all(type(arg) is type(receiver) for arg in args):
        return receiver.replace(args[0], args[1])
    if name == "format" and isinstance(receiver, str) and all(isinstance(arg, (str, int)) for arg in args):
        return receiver.format(*args)
    if name == "split" and len(args) <= 1 and all(type(arg) is type(receiver) for arg in args):
        return receiver.split(*args)
    return None
