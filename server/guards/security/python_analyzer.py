"""Static security analysis of Python source for Dualstate's security guard.

Reads {"source", "allowModules", "allowCalls"} as JSON on stdin and prints one JSON line:
{"findings": [{rule, construct, line, column, message}]} or {"error": {line, column, message}}
when the source does not parse. Run as `python3 -I -S python_analyzer.py`; the code is parsed,
never executed.
"""

import ast
import json
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))

from sec_report import Reporter  # noqa: E402
from sec_resolve import Resolver  # noqa: E402
from sec_review import check_review  # noqa: E402
from sec_rules import Checker  # noqa: E402
from sec_scopes import build_scopes  # noqa: E402


def analyze(source, allow_modules, allow_calls):
    try:
        tree = ast.parse(source, filename="artifact.py")
    except SyntaxError as error:
        return {"error": {"line": error.lineno, "column": error.offset, "message": error.msg}}
    except (ValueError, MemoryError, RecursionError) as error:
        return {"error": {"line": None, "column": None, "message": "%s: %s" % (type(error).__name__, error)}}
    reporter = Reporter(allow_modules, allow_calls)
    try:
        resolver = Resolver(build_scopes(tree))
        checker = Checker(resolver, reporter)
        checker.run(tree)
        check_review(checker.nodes, resolver, reporter.report, checker.parents)
    except RecursionError:
        return {"error": {"line": None, "column": None, "message": "the code is nested too deeply to analyse"}}
    return {"findings": reporter.findings}


def main():
    request = json.loads(sys.stdin.read())
    answer = analyze(request.get("source", ""), request.get("allowModules") or [], request.get("allowCalls") or [])
    sys.stdout.write(json.dumps(answer) + "\n")


if __name__ == "__main__":
    main()
