/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F` and the
 * runner `R`.
 *
 * The test-registering functions as the test code calls them, in three flavours over the one
 * runner: jest/vitest (which differ only in what a test function's parameter is) (test, it, describe with .skip/.only/.todo/.each/.skipIf/.runIf/
 * .concurrent, beforeAll/afterAll/beforeEach/afterEach, xit/fit/xdescribe/fdescribe) and
 * node:test (test(name, [options], fn), it, describe/suite, before/after/beforeEach/afterEach,
 * .skip/.only/.todo). Every function is frozen.
 */
export function createTestApi(I, F, R) {
  "use strict";
  const call = I.apply;
  const PLACEHOLDER = new I.RegExp("%[sdifjoOp#$%]|\\$[A-Za-z_$][A-Za-z0-9_$]*(?:\\.[A-Za-z_$][A-Za-z0-9_$]*)*", "g");

  /** Frozen, with a null prototype: a member it lacks (test.extend) is undefined, never one the artifact planted on Function.prototype. */
  function sealed(fn) {
    I.setPrototypeOf(fn, null);
    return I.freeze(fn);
  }

  function withProperties(fn, properties) {
    const names = I.keys(properties);
    for (let i = 0; i < names.length; i++) {
      I.defineProperty(fn, names[i], { __proto__: null, value: properties[names[i]], writable: false, enumerable: true, configurable: false });
    }
    return sealed(fn);
  }

  function isObject(value) {
    return typeof value === "object" && value !== null;
  }

  /** `$a.b` in an .each title: the row object's property, rendered. */
  function lookup(row, path) {
    let value = row;
    let start = 1;
    for (let guard = 0; guard < 16; guard++) {
      const dot = call(I.stringIndexOf, path, [".", start]);
      const key = F.slice(path, start, dot === -1 ? path.length : dot);
      value = isObject(value) || typeof value === "function" ? value[key] : undefined;
      if (dot === -1) break;
      start = dot + 1;
    }
    return F.formatValue(value);
  }

  function printf(code, args, next) {
    if (code === "%%") return "%";
    if (code === "%#") return I.String(next.index);
    if (code === "%$") return I.String(next.index + 1);
    if (next.arg >= args.length) return code;
    const value = args[next.arg];
    next.arg += 1;
    if (code === "%s") return typeof value === "string" ? value : F.formatValue(value);
    if (code === "%d" || code === "%i") {
      const number = typeof value === "number" ? value : I.Number(typeof value === "bigint" ? value : NaN);
      return I.String(code === "%i" ? number - (number % 1) : number);
    }
    if (code === "%f") return I.String(typeof value === "number" ? value : NaN);
    if (code === "%j") {
      try {
        return I.String(I.stringify(value));
      } catch {
        return F.formatValue(value);
      }
    }
    return F.formatValue(value);
  }

  /** A title for one row of .each: printf placeholders, or $name for rows that are objects. */
  function title(name, args, index) {
    const text = typeof name === "string" ? F.slice(name, 0, 500) : F.formatValue(name);
    const next = { __proto__: null, arg: 0, index };
    const row = args.length === 1 && isObject(args[0]) && !I.isArray(args[0]) ? args[0] : undefined;
    let out = "";
    let last = 0;
    PLACEHOLDER.lastIndex = 0;
    for (let guard = 0; guard < 200; guard++) {
      const match = call(I.regExpExec, PLACEHOLDER, [text]);
      if (match === null) break;
      const code = match[0];
      const replacement = code[0] === "$" ? (row === undefined ? code : lookup(row, code)) : printf(code, args, next);
      out += F.slice(text, last, match.index) + replacement;
      last = match.index + code.length;
    }
    return out + F.slice(text, last, text.length);
  }

  /** The rows of .each: an array of rows (arrays are spread as arguments), or a tagged template table. */
  function rows(table, values) {
    if (!I.isArray(table)) throw I.construct(I.TypeError, [".each needs an array of rows or a template table, got " + F.formatValue(table)]);
    const raw = table.raw;
    const list = F.newList();
    if (I.isArray(raw) && values.length > 0) {
      const header = table[0];
      const trim = new I.RegExp("^\\s*(.*?)\\s*$", "s");
      const names = F.newList();
      let start = 0;
      for (let guard = 0; guard < 100; guard++) {
        const bar = call(I.stringIndexOf, header, ["|", start]);
        const cell = call(I.regExpExec, trim, [F.slice(header, start, bar === -1 ? header.length : bar)])[1];
        if (cell !== "") F.append(names, cell);
        if (bar === -1) break;
        start = bar + 1;
      }
      if (names.length === 0) throw I.construct(I.TypeError, [".each template table needs a header row of column names"]);
      for (let i = 0; i + names.length <= values.length; i += names.length) {
        const row = {};
        for (let j = 0; j < names.length; j++) row[names[j]] = values[i + j];
        F.append(list, [row]);
      }
      return list;
    }
    for (let i = 0; i < table.length; i++) F.append(list, I.isArray(table[i]) ? table[i] : [table[i]]);
    return list;
  }

  /** test.each(table)(name, fn): one test (or suite) per row. */
  function each(register) {
    return (table, ...values) => {
      const list = rows(table, values);
      return (name, fn, timeout) => {
        if (typeof fn !== "function") throw I.construct(I.TypeError, [".each(table)(name, fn): fn must be a function, got " + F.formatValue(fn)]);
        for (let i = 0; i < list.length; i++) {
          const args = list[i];
          register(title(name, args, i), () => call(fn, undefined, args), timeout);
        }
      };
    };
  }

  function jestTests(flavor) {
    const variant = (mode) => (name, fn) => R.addTest(name, fn, mode, flavor);
    const run = variant("");
    const skip = variant("skip");
    const only = variant("only");
    const todo = (name) => R.addTest(name, undefined, "todo", flavor);
    const skipWithEach = withProperties(skip, { each: each(skip) });
    const onlyWithEach = withProperties(only, { each: each(only) });
    const test = withProperties(run, {
      skip: skipWithEach,
      only: onlyWithEach,
      todo,
      each: each(run),
      concurrent: withProperties((name, fn) => run(name, fn), { each: each(run), skip: skipWithEach, only: onlyWithEach }),
      skipIf: (condition) => (condition ? skipWithEach : test),
      runIf: (condition) => (condition ? test : skipWithEach),
      fails: () => {
        throw I.construct(I.Error, ["test.fails is not available in the sandbox"]);
      },
    });
    return { test, skip: skipWithEach, only: onlyWithEach };
  }

  function jestSuites() {
    const variant = (mode) => (name, fn) => R.addSuite(name, fn, mode);
    const run = variant("");
    const skip = withProperties(variant("skip"), { each: each(variant("skip")) });
    const only = withProperties(variant("only"), { each: each(variant("only")) });
    const describe = withProperties(run, {
      skip,
      only,
      todo: (name) => R.addSuite(name, () => undefined, "todo"),
      each: each(run),
      concurrent: run,
      skipIf: (condition) => (condition ? skip : describe),
      runIf: (condition) => (condition ? describe : skip),
    });
    return { describe, skip, only };
  }

  const hook = (kind, flavor) => sealed((fn) => R.addHook(kind, fn, flavor));

  /** flavor "jest" (the globals, @jest/globals: a parameter is done) or "vitest" (a parameter is the test context). */
  function framework(flavor) {
    const tests = jestTests(flavor);
    const suites = jestSuites();
    return I.freeze({
      __proto__: null,
      test: tests.test,
      it: tests.test,
      describe: suites.describe,
      beforeAll: hook("beforeAll", flavor),
      afterAll: hook("afterAll", flavor),
      beforeEach: hook("beforeEach", flavor),
      afterEach: hook("afterEach", flavor),
      xit: tests.skip,
      xtest: tests.skip,
      fit: tests.only,
      xdescribe: suites.skip,
      fdescribe: suites.only,
    });
  }
  const jest = framework("jest");
  const vitest = framework("vitest");

  /** node:test's (name, [options], fn) and (fn) forms -> [name, fn, mode]. */
  function nodeArguments(name, options, fn, mode) {
    let body = fn;
    let settings = options;
    let label = name;
    if (typeof name === "function") {
      body = name;
      settings = undefined;
      label = F.functionName(name) || "<anonymous>";
    } else if (typeof options === "function") {
      body = options;
      settings = undefined;
    }
    let chosen = mode;
    if (isObject(settings)) {
      if (settings.skip) chosen = "skip";
      else if (settings.todo) chosen = "todo";
      else if (settings.only) chosen = "only";
    }
    return [label === undefined ? "<anonymous>" : label, body, chosen];
  }

  function nodeVariant(register, mode) {
    return (name, options, fn) => {
      const parsed = nodeArguments(name, options, fn, mode);
      if (parsed[2] === "todo" && typeof parsed[1] !== "function") return R.addTest(parsed[0], undefined, "todo", "node");
      return register(parsed[0], parsed[1], parsed[2]);
    };
  }

  function nodeFamily(register) {
    return withProperties(nodeVariant(register, ""), {
      skip: nodeVariant(register, "skip"),
      only: nodeVariant(register, "only"),
      todo: nodeVariant(register, "todo"),
    });
  }

  const nodeTest = nodeFamily((name, fn, mode) => R.addTest(name, fn, mode, "node"));
  const nodeDescribe = nodeFamily((name, fn, mode) => R.addSuite(name, fn, mode));
  const node = I.freeze({
    __proto__: null,
    test: nodeTest,
    it: nodeTest,
    describe: nodeDescribe,
    suite: nodeDescribe,
    before: hook("beforeAll", "node"),
    after: hook("afterAll", "node"),
    beforeEach: hook("beforeEach", "node"),
    afterEach: hook("afterEach", "node"),
  });

  return I.freeze({ __proto__: null, jest, vitest, node });
}
