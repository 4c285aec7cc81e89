"""Changes to the assertion helpers tests rely on.

- writes, deletes and setattr/delattr on the test frameworks' objects: `unittest.TestCase.assertEqual = …`,
  `TestCase.fail = …`, `unittest.TestResult.addFailure = …`, `unittest.TestCase = Fake`, `pytest.fail = …`;
- patching them by name: `mock.patch("unittest.TestCase.assertEqual")`, `patch.object(TestCase, …)`,
  `monkeypatch.setattr("unittest.TestCase.assertTrue", …)`;
- a TestCase subclass that redefines an assertion the framework provides (`def assertEqual(self, a, b): pass`,
  `failureException = …`, `run`), or replaces one on `self`/`cls` or on the class later.
`builtins.AssertionError = …`, `__builtins__[…]` and `sys.modules["unittest"] = …` are found by the
other rules (module writes, `__builtins__`, `sys.modules`). A local `expected`, a class's own
`assertValid` and new helper asserts in a test class (`assertValidUser`) pass.
"""

import ast

TEST_MODULES = {"unittest", "pytest", "_pytest"}
# Settings a test class may change for everyone without weakening what an assertion checks.
HARMLESS_SETTINGS = {"maxDiff", "longMessage"}
PATCHERS = {"patch", "setattr", "object", "setitem", "delattr"}

# What unittest.TestCase gives its tests (Python 3.8–3.13, with the deprecated aliases).
PROTECTED = frozenset("""
assertAlmostEqual assertAlmostEquals assertCountEqual assertDictContainsSubset assertDictEqual assertEqual
assertEquals assertFalse assertGreater assertGreaterEqual assertIn assertIs assertIsInstance assertIsNone
assertIsNot assertIsNotNone assertLess assertLessEqual assertListEqual assertLogs assertMultiLineEqual
assertNoLogs assertNotAlmostEqual assertNotAlmostEquals assertNotEqual assertNotEquals assertNotIn
assertNotIsInstance assertNotRegex assertNotRegexpMatches assertRaises assertRaisesRegex assertRaisesRegexp
assertRegex assertRegexpMatches assertSequenceEqual assertSetEqual assertTrue assertTupleEqual assertWarns
assertWarnsRegex assert_ assertStartsWith assertEndsWith assertNotStartsWith assertNotEndsWith assertHasAttr
assertNotHasAttr assertIsSubclass assertNotIsSubclass failUnless failIf failUnlessEqual failIfEqual
failUnlessAlmostEqual failIfAlmostEqual failUnlessRaises fail failureException run debug __call__
_callTestMethod _feedErrorsToResult _addSkip _outcome _baseAssertEqual _getAssertEqualityFunc
addTypeEqualityFunc _formatMessage
""".split())


class TamperingChecker:
    def __init__(self, resolver, report):
        self.resolver = resolver
        self.report = report
        self.test_classes = set()

    def collect(self, class_defs):
        """Names of the classes here that derive from a TestCase, directly or through one of them."""
        classes = list(class_defs)
        for _ in range(4):  # a chain of local base classes, a few deep
            for node in classes:
                if node.name not in self.test_classes and any(self.is_test_class(base) for base in node.bases):
                    self.test_classes.add(node.name)

    def is_test_class(self, node):
        if isinstance(node, ast.Name) and node.id in self.test_classes:
            return True
        path = self.resolver.path(node)
        return path is not None and path[0] == "unittest" and path[-1].endswith("TestCase")

    def check(self, node, enclosing_class):
        """`enclosing_class()` gives the class whose method the node is in (computed only when needed)."""
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for element in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                    if isinstance(element, ast.Attribute):
                        self.check_write(element, element.value, element.attr, "deletion of" if isinstance(node, ast.Delete) else "assignment to", enclosing_class)
        elif isinstance(node, ast.Call):
            self.check_call(node, enclosing_class)
        elif isinstance(node, ast.ClassDef) and node.name in self.test_classes:
            self.check_test_class(node)

    def owner(self, node, enclosing_class):
        """The test framework object or test class the node denotes, as shown, or None."""
        path = self.resolver.path(node)
        if path is not None and path[0] in TEST_MODULES:
            return ".".join(path)
        if isinstance(node, ast.Name):
            if node.id in self.test_classes:
                return node.id
            if node.id in ("self", "cls") and enclosing_class() in self.test_classes:
                return enclosing_class()  # self.assertEqual = … replaces it for the whole test
        return None

    def check_write(self, node, base, attribute, verb, enclosing_class):
        owner = self.owner(base, enclosing_class)
        if owner is None or attribute in HARMLESS_SETTINGS:
            return
        if owner.split(".")[0] not in TEST_MODULES and attribute not in PROTECTED:
            return  # a test class's own attribute: self.value = 1
        self.report(node, "test-tampering", "%s.%s" % (owner, attribute), "%s %s.%s" % (verb, owner, attribute))

    def check_call(self, node, enclosing_class):
        callee = self.resolver.path(node.func)
        name = node.func.attr if isinstance(node.func, ast.Attribute) else (node.func.id if isinstance(node.func, ast.Name) else None)
        if callee in (("setattr",), ("delattr",)) and len(node.args) >= 2:
            attribute = self.resolver.const_str(node.args[1])
            owner = self.owner(node.args[0], enclosing_class)
            if owner is None or attribute in HARMLESS_SETTINGS:
                return
            # any name on the framework's objects; on the code's test classes, only the assertions
            if owner.split(".")[0] in TEST_MODULES or attribute in PROTECTED:
                self.report(node, "test-tampering", owner, "%s(%s)" % (callee[0], owner))
            return
        if name in PATCHERS and node.args:
            target = self.resolver.const_str(node.args[0])
            if target is not None and target.split(".")[0] in TEST_MODULES | {"builtins"} and (target.split(".")[0] != "builtins" or "AssertionError" in target):
                self.report(node, "test-tampering", target, "%s(%r)" % (name, target[:48]))
                return
            owner = self.owner(node.args[0], enclosing_class)
            if owner is not None and name != "patch":
                self.report(node, "test-tampering", owner, "%s(%s)" % (name, owner))

    def check_test_class(self, node):
        for statement in node.body:
            names = []
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append((statement, statement.name))
            elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                names.extend((target, target.id) for target in targets if isinstance(target, ast.Name))
            for where, name in names:
                if name in PROTECTED:
                    self.report(where, "test-tampering", "%s.%s" % (node.name, name), "%s.%s redefined" % (node.name, name))
