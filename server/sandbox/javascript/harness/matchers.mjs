/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F`,
 * `deepEqual` and the mock functions' records `Mk` (for toHaveBeenCalled...).
 *
 * The checks behind expect(...).toXxx. Each matcher returns [pass, explain], where
 * explain(not) builds the failure message lazily ("expected 2 to be 3"), so passing assertions
 * never render values. `rejected` is true when `actual` is a promise's rejection reason
 * (expect(p).rejects...), which toThrow then treats as the thrown error.
 */
export function createMatchers(I, F, deepEqual, Mk) {
  "use strict";
  const call = I.apply;
  const show = (value) => F.formatValue(value);
  const to = (not) => (not ? " not to " : " to ");

  function simple(pass, actual, phrase) {
    return [pass, (not) => "expected " + show(actual) + to(not) + phrase];
  }

  /** Ordering matchers accept only numbers and bigints, so no valueOf of an object ever runs. */
  function compare(actual, expected, holds, phrase) {
    const numeric = (value) => typeof value === "number" || typeof value === "bigint";
    if (!numeric(actual) || !numeric(expected)) {
      return [false, () => "expected " + show(actual) + " and " + show(expected) + " to be numbers (" + phrase + ")"];
    }
    return simple(holds(actual, expected), actual, phrase + " " + show(expected));
  }

  function isRegExp(value) {
    try {
      call(I.regExpSource, value, []);
      return value !== I.RegExp.prototype;
    } catch {
      return false;
    }
  }

  function thrownMessage(error) {
    const message = F.isError(error) ? F.ownData(error, "message") : error;
    return typeof message === "string" ? message : show(error);
  }

  /** Does a thrown value match toThrow's / assert.throws's expectation? */
  function thrownMatches(error, expected) {
    if (expected === undefined) return true;
    if (typeof expected === "string") return call(I.stringIndexOf, thrownMessage(error), [expected]) !== -1;
    if (isRegExp(expected)) return F.matches(expected, thrownMessage(error));
    if (typeof expected === "function") return error instanceof expected;
    if (F.isError(expected)) return thrownMessage(error) === thrownMessage(expected);
    if (typeof expected === "object" && expected !== null) {
      const keys = I.keys(expected);
      for (let i = 0; i < keys.length; i++) {
        if (error === null || (typeof error !== "object" && typeof error !== "function")) return false;
        if (!deepEqual(error[keys[i]], expected[keys[i]], false)) return false;
      }
      return true;
    }
    return false;
  }

  function describeExpectation(expected) {
    if (expected === undefined) return "";
    if (typeof expected === "function") return " an instance of " + F.functionName(expected);
    return " an error matching " + show(expected);
  }

  function toThrow(actual, args, rejected) {
    const expected = args[0];
    let threw = rejected;
    let error = rejected ? actual : undefined;
    if (!rejected) {
      if (typeof actual !== "function") return [false, () => "expected a function to call for toThrow, got " + show(actual)];
      try {
        actual();
      } catch (caught) {
        threw = true;
        error = caught;
      }
    }
    const matches = threw && thrownMatches(error, expected);
    const what = describeExpectation(expected);
    return [matches, (not) => {
      if (not) return "expected function not to throw" + what + ", but it threw " + show(error);
      return "expected function to throw" + what + (threw ? ", but it threw " + show(error) : ", but it did not throw");
    }];
  }

  function containerLength(actual) {
    if (actual === null || actual === undefined) return undefined;
    const length = actual.length;
    return typeof length === "number" ? length : undefined;
  }

  function toContain(actual, args, deep) {
    const item = args[0];
    if (typeof actual === "string") return simple(typeof item === "string" && call(I.stringIndexOf, actual, [item]) !== -1, actual, "contain " + show(item));
    if (!deep) {
      let inSet;
      try {
        inSet = call(I.setHas, actual, [item]);
      } catch {
        inSet = undefined; // not a Set
      }
      if (inSet !== undefined) return simple(inSet, actual, "contain " + show(item));
    }
    const length = containerLength(actual);
    if (length === undefined) return [false, () => "expected " + show(actual) + " to be an array, string or Set (toContain)"];
    let found = false;
    for (let i = 0; i < length && !found; i++) found = deep ? deepEqual(actual[i], item, false) : actual[i] === item;
    return simple(found, actual, (deep ? "contain an item equal to " : "contain ") + show(item));
  }

  const matchers = {
    __proto__: null,
    toBe(actual, args) {
      const expected = args[0];
      const same = I.is(actual, expected);
      return [same, (not) => {
        const hint = !not && typeof actual === "object" && actual !== null && deepEqual(actual, expected, true)
          ? " (they are deeply equal but not the same object: use toEqual)" : "";
        return "expected " + show(actual) + to(not) + "be " + show(expected) + hint;
      }];
    },
    toEqual: (actual, args) => simple(deepEqual(actual, args[0], false), actual, "equal " + show(args[0])),
    toStrictEqual: (actual, args) => simple(deepEqual(actual, args[0], true), actual, "strictly equal " + show(args[0])),
    toBeTruthy: (actual) => simple(!!actual, actual, "be truthy"),
    toBeFalsy: (actual) => simple(!actual, actual, "be falsy"),
    toBeNull: (actual) => simple(actual === null, actual, "be null"),
    toBeUndefined: (actual) => simple(actual === undefined, actual, "be undefined"),
    toBeDefined: (actual) => simple(actual !== undefined, actual, "be defined"),
    toBeNaN: (actual) => simple(typeof actual === "number" && I.isNaN(actual), actual, "be NaN"),
    toBeGreaterThan: (actual, args) => compare(actual, args[0], (a, b) => a > b, "be greater than"),
    toBeGreaterThanOrEqual: (actual, args) => compare(actual, args[0], (a, b) => a >= b, "be greater than or equal to"),
    toBeLessThan: (actual, args) => compare(actual, args[0], (a, b) => a < b, "be less than"),
    toBeLessThanOrEqual: (actual, args) => compare(actual, args[0], (a, b) => a <= b, "be less than or equal to"),
    toBeCloseTo(actual, args) {
      const digits = args[1] === undefined ? 2 : args[1];
      const close = typeof actual === "number" && typeof args[0] === "number" && (actual - args[0] < 0 ? args[0] - actual : actual - args[0]) < 10 ** -digits / 2;
      return simple(close, actual, "be close to " + show(args[0]) + " (" + digits + " digits)");
    },
    toContain: (actual, args) => toContain(actual, args, false),
    toContainEqual: (actual, args) => toContain(actual, args, true),
    toHaveLength(actual, args) {
      const length = containerLength(actual);
      return [length === args[0], (not) => "expected " + show(actual) + to(not) + "have length " + show(args[0]) +
        (length === undefined ? ", but it has no length" : not ? "" : ", but its length is " + length)];
    },
    toMatch(actual, args) {
      const pattern = args[0];
      if (typeof actual !== "string") return [false, () => "expected " + show(actual) + " to be a string (toMatch)"];
      const pass = isRegExp(pattern) ? F.matches(pattern, actual) : call(I.stringIndexOf, actual, [I.String(pattern)]) !== -1;
      return simple(pass, actual, "match " + show(pattern));
    },
    toBeInstanceOf(actual, args) {
      const type = args[0];
      if (typeof type !== "function") return [false, () => "toBeInstanceOf needs a class, got " + show(type)];
      return simple(actual instanceof type, actual, "be an instance of " + F.functionName(type));
    },
    toHaveProperty(actual, args) {
      const path = args[0];
      let value = actual;
      let found = true;
      const keys = I.isArray(path) ? path : splitDots(I.String(path));
      for (let i = 0; i < keys.length && found; i++) {
        found = value !== null && value !== undefined && (typeof value === "object" || typeof value === "function") && keys[i] in value;
        if (found) value = value[keys[i]];
      }
      const pass = found && (args.length < 2 || deepEqual(value, args[1], false));
      return simple(pass, actual, "have property " + show(path) + (args.length < 2 ? "" : " equal to " + show(args[1])));
    },
    toMatchObject(actual, args) {
      const shape = args[0];
      if (typeof shape !== "object" || shape === null) return [false, () => "toMatchObject needs an object, got " + show(shape)];
      return simple(matchesShape(actual, shape, 0), actual, "match object " + show(shape));
    },
    toThrow,
    toThrowError: toThrow,
    toHaveBeenCalled: (actual) => called(actual, (calls) => [calls.length > 0, "have been called"]),
    toHaveBeenCalledTimes: (actual, args) => called(actual, (calls) => [calls.length === args[0], "have been called " + show(args[0]) + " times"]),
    toHaveBeenCalledWith: (actual, args) => called(actual, (calls) => [someCall(calls, args), "have been called with " + show(args)]),
    toHaveBeenLastCalledWith: (actual, args) => called(actual, (calls) => [calls.length > 0 && deepEqual(calls[calls.length - 1], args, false), "have been last called with " + show(args)]),
    toHaveBeenNthCalledWith: (actual, args) => called(actual, (calls) => {
      const nth = typeof args[0] === "number" ? calls[args[0] - 1] : undefined;
      return [nth !== undefined && sameArguments(nth, args, 1), "have been called the " + show(args[0]) + "th time with the arguments after the first"];
    }),
    toHaveReturned: (actual) => called(actual, (calls, results) => [returned(results, undefined, false), "have returned"]),
    toHaveReturnedWith: (actual, args) => called(actual, (calls, results) => [returned(results, args[0], true), "have returned " + show(args[0])]),
  };
  matchers.toBeCalled = matchers.toHaveBeenCalled;
  matchers.toBeCalledTimes = matchers.toHaveBeenCalledTimes;
  matchers.toBeCalledWith = matchers.toHaveBeenCalledWith;
  matchers.lastCalledWith = matchers.toHaveBeenLastCalledWith;

  /** Are `given` the arguments in `args` from index `from` on? (no array is built: Array.prototype may be patched) */
  function sameArguments(given, args, from) {
    if (given.length !== args.length - from) return false;
    for (let i = from; i < args.length; i++) if (!deepEqual(given[i - from], args[i], false)) return false;
    return true;
  }

  function someCall(calls, args) {
    for (let i = 0; i < calls.length; i++) if (deepEqual(calls[i], args, false)) return true;
    return false;
  }

  function returned(results, value, compare) {
    for (let i = 0; i < results.length; i++) {
      if (results[i].type === "return" && (!compare || deepEqual(results[i].value, value, false))) return true;
    }
    return false;
  }

  /** Mock matchers: check(calls, results) -> [pass, phrase]; the message lists the calls made. */
  function called(actual, check) {
    const record = Mk.recorded(actual);
    if (record === undefined) return [false, () => "expected a mock function (jest.fn() / vi.fn() / spyOn), got " + show(actual)];
    const outcome = check(record.calls, record.results);
    return [outcome[0], (not) => {
      const calls = F.newList();
      for (let i = 0; i < record.calls.length && i < 5; i++) F.append(calls, show(record.calls[i]));
      let list = "";
      for (let i = 0; i < calls.length; i++) list += (i > 0 ? ", " : "") + calls[i];
      return "expected " + record.name + to(not) + outcome[1] + ", but it was called " + record.calls.length + " times" +
        (record.calls.length > 0 ? " (with " + list + (record.calls.length > 5 ? ", ..." : "") + ")" : "");
    }];
  }

  /** toMatchObject: every property of `shape` is in `actual`, objects compared as subsets, arrays item by item. */
  function matchesShape(actual, shape, depth) {
    if (depth > 64 || typeof actual !== "object" || actual === null) return false;
    if (I.isArray(shape)) {
      if (!I.isArray(actual) || actual.length !== shape.length) return false;
      for (let i = 0; i < shape.length; i++) if (!matchesValue(actual[i], shape[i], depth)) return false;
      return true;
    }
    const keys = I.keys(shape);
    for (let i = 0; i < keys.length; i++) {
      if (!(keys[i] in actual) || !matchesValue(actual[keys[i]], shape[keys[i]], depth)) return false;
    }
    return true;
  }

  function matchesValue(actual, expected, depth) {
    const plain = typeof expected === "object" && expected !== null && (I.isArray(expected) || I.getPrototypeOf(expected) === I.ObjectPrototype);
    return plain ? matchesShape(actual, expected, depth + 1) : deepEqual(actual, expected, false);
  }

  function splitDots(text) {
    const parts = F.newList();
    let start = 0;
    for (;;) {
      const dot = call(I.stringIndexOf, text, [".", start]);
      F.append(parts, F.slice(text, start, dot === -1 ? text.length : dot));
      if (dot === -1) return parts;
      start = dot + 1;
    }
  }

  return I.freeze({ __proto__: null, matchers: I.freeze(matchers), thrownMatches, describeExpectation, isRegExp, show });
}
