/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only the captured intrinsics `I` and
 * the formatter's helpers `F`.
 *
 * Deep equality for toEqual / toStrictEqual / assert.deepEqual: primitives (Object.is),
 * arrays, plain objects and class instances, Map, Set, Date, RegExp and errors, with cycles.
 * Loose mode (toEqual) ignores prototypes and properties whose value is undefined; strict mode
 * (toStrictEqual) compares both. An asymmetric matcher (expect.any(Number), made by
 * `asymmetric`) on either side equals whatever its predicate accepts.
 */
export function createEquality(I, F) {
  "use strict";
  const call = I.apply;

  function brand(getterFn, value) {
    try {
      call(getterFn, value, []);
      return true;
    } catch {
      return false;
    }
  }

  function definedKeys(value, strict) {
    const keys = I.keys(value);
    if (strict) return keys;
    const kept = F.newList();
    for (let i = 0; i < keys.length; i++) if (value[keys[i]] !== undefined) F.append(kept, keys[i]);
    return kept;
  }

  function equalMaps(a, b, strict, stack) {
    if (call(I.mapSize, a, []) !== call(I.mapSize, b, [])) return false;
    let same = true;
    call(I.mapForEach, a, [(value, key) => {
      if (same) same = call(I.mapHas, b, [key]) && equal(value, call(I.mapGet, b, [key]), strict, stack);
    }]);
    return same;
  }

  function equalSets(a, b, strict, stack) {
    if (call(I.setSize, a, []) !== call(I.setSize, b, [])) return false;
    const others = F.newList();
    call(I.setForEach, b, [(value) => F.append(others, value)]);
    let same = true;
    call(I.setForEach, a, [(value) => {
      if (!same || call(I.setHas, b, [value])) return;
      same = false;
      for (let i = 0; i < others.length && !same; i++) same = equal(value, others[i], strict, stack);
    }]);
    return same;
  }

  function equalArrays(a, b, strict, stack) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (strict && I.hasOwn(a, i) !== I.hasOwn(b, i)) return false;
      if (!equal(a[i], b[i], strict, stack)) return false;
    }
    return true;
  }

  function equalObjects(a, b, strict, stack) {
    const keysA = definedKeys(a, strict);
    const keysB = definedKeys(b, strict);
    if (keysA.length !== keysB.length) return false;
    for (let i = 0; i < keysA.length; i++) {
      const key = keysA[i];
      if (!I.hasOwn(b, key) || !equal(a[key], b[key], strict, stack)) return false;
    }
    return true;
  }

  function equalStructures(a, b, strict, stack) {
    if (strict && I.getPrototypeOf(a) !== I.getPrototypeOf(b)) return false;
    if (I.isArray(a) || I.isArray(b)) return I.isArray(a) && I.isArray(b) && equalArrays(a, b, strict, stack);
    if (brand(I.mapSize, a) || brand(I.mapSize, b)) return brand(I.mapSize, a) && brand(I.mapSize, b) && equalMaps(a, b, strict, stack);
    if (brand(I.setSize, a) || brand(I.setSize, b)) return brand(I.setSize, a) && brand(I.setSize, b) && equalSets(a, b, strict, stack);
    if (brand(I.dateGetTime, a) || brand(I.dateGetTime, b)) {
      return brand(I.dateGetTime, a) && brand(I.dateGetTime, b) && I.is(call(I.dateGetTime, a, []), call(I.dateGetTime, b, []));
    }
    if (brand(I.regExpSource, a) || brand(I.regExpSource, b)) {
      return brand(I.regExpSource, a) && brand(I.regExpSource, b) &&
        call(I.regExpSource, a, []) === call(I.regExpSource, b, []) && F.regExpFlags(a) === F.regExpFlags(b);
    }
    if (F.isError(a) || F.isError(b)) {
      if (!F.isError(a) || !F.isError(b) || F.ownData(a, "message") !== F.ownData(b, "message")) return false;
    }
    return equalObjects(a, b, strict, stack);
  }

  const asymmetricMatchers = new I.WeakMap();

  /** expect.any(Number) & co.: an object that equals whatever `predicate` accepts. */
  function asymmetric(description, predicate) {
    const matcher = I.freeze({ __proto__: null, asymmetricMatch: description });
    call(I.weakMapSet, asymmetricMatchers, [matcher, predicate]);
    return matcher;
  }

  function predicateOf(value) {
    return typeof value === "object" && value !== null ? call(I.weakMapGet, asymmetricMatchers, [value]) : undefined;
  }

  function equal(a, b, strict, stack) {
    if (I.is(a, b)) return true;
    const expected = predicateOf(b);
    if (expected !== undefined) return !!expected(a);
    const actual = predicateOf(a);
    if (actual !== undefined) return !!actual(b);
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
      // toEqual treats +0 and -0 as equal, like ===; toStrictEqual does not.
      return !strict && typeof a === "number" && a === b;
    }
    // A pair already being compared further up is assumed equal (cycles).
    for (let i = 0; i < stack.length; i += 2) if (stack[i] === a && stack[i + 1] === b) return true;
    F.append(stack, a);
    F.append(stack, b);
    try {
      return equalStructures(a, b, strict, stack);
    } finally {
      stack.length -= 2;
    }
  }

  /** Deep equality; `strict` for toStrictEqual / deepStrictEqual. May throw if a getter throws. */
  function deepEqual(a, b, strict) {
    return equal(a, b, strict, F.newList());
  }

  return I.freeze({ __proto__: null, deepEqual, asymmetric });
}
