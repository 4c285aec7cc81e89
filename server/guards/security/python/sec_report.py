"""Collects findings and applies the guard's allowModules / allowCalls (see allow-policy.ts)."""

import re

REASONS = {
    "spawn-process": "starts processes or threads outside the sandboxed code",
    "eval-code": "evaluates strings as code, which hides what really runs",
    "obfuscation": "reaches a capability through a computed or hidden name",
    "builtin-module": "loads a module that gives access outside the code itself",
    "network": "opens network connections",
    "filesystem": "reads or writes files",
    "prototype-pollution": "changes objects shared with all other code",
    "environment": "reads or changes the process environment",
    "exit-process": "ends or signals the process",
    "test-tampering": "changes the assertion helpers the tests rely on, so a failing test could pass",
    "non-termination": "cannot end: nothing in the loop leaves it",
    "memory-exhaustion": "allocates more than 256 MiB at once, with a size fixed in the code",
}


# The feedback shows ten constructs; the cap keeps the answer far below the output limit.
MAX_FINDINGS = 500


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MAX_CONSTRUCT_LENGTH = 96


def _printable(construct):
    """Constructs can carry names the code computed: control characters are escaped so that a
    finding stays one feedback line, and the length is capped."""
    escaped = _CONTROL.sub(lambda match: "\\u%04x" % ord(match.group()), construct)
    return escaped if len(escaped) <= MAX_CONSTRUCT_LENGTH else escaped[: MAX_CONSTRUCT_LENGTH - 1] + "…"


def _under(name, parent):
    return name == parent or name.startswith(parent + ".")


class Reporter:
    def __init__(self, allow_modules, allow_calls):
        self.allow_modules = [m.strip() for m in allow_modules if m.strip()]
        self.allow_calls = [c.strip() for c in allow_calls if c.strip()]
        self.findings = []
        self._seen = set()

    def module_allowed(self, name):
        return any(_under(name, allowed) for allowed in self.allow_modules)

    def member_of_module_allowed(self, module):
        return any(_under(allowed, module) for allowed in self.allow_calls)

    def call_allowed(self, key):
        return any(_under(key, allowed) for allowed in self.allow_calls)

    def report(self, node, rule, key, construct=None):
        # A member of an allowed module is allowed too: allowModules ["os"] lets os.system through.
        if self.call_allowed(key) or self.module_allowed(key):
            return
        construct = _printable(construct or key)
        line, column = getattr(node, "lineno", 0), getattr(node, "col_offset", -1) + 1
        if (construct, line, column) in self._seen or len(self.findings) >= MAX_FINDINGS:
            return
        self._seen.add((construct, line, column))
        self.findings.append({"rule": rule, "construct": construct, "line": line, "column": column, "message": REASONS.get(rule, rule)})
