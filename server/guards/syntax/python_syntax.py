# Reads Python source on stdin and prints one JSON line: {"ok": true} or the first syntax error.
import ast
import json
import sys

source = sys.stdin.read()
try:
    ast.parse(source, filename="artifact.py")
    print(json.dumps({"ok": True}))
except SyntaxError as error:
    print(json.dumps({
        "ok": False,
        "line": error.lineno,
        "column": error.offset,
        "message": error.msg,
        "text": (error.text or "").rstrip("\n"),
    }))
except (ValueError, RecursionError, MemoryError) as error:
    # ValueError: null bytes in the source; RecursionError/MemoryError: absurdly nested code.
    print(json.dumps({"ok": False, "line": None, "column": None, "message": f"{type(error).__name__}: {error}", "text": ""}))
