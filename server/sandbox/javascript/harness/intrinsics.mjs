/**
 * GUEST CODE: runs inside QuickJS, never in Node. Its source text is spliced into the harness
 * by bootstrap-source.mjs, so it must not refer to anything outside its own body.
 *
 * Captures every built-in the harness uses, before the artifact runs. The artifact may later
 * replace Object.keys, Array.prototype.push, JSON, Promise.prototype.then, ...; the harness only
 * ever calls these captured originals, through the captured Reflect.apply, so tampering can at
 * worst break the harness (an "incomplete" run), never make it report a wrong pass.
 */
export function captureIntrinsics(global) {
  "use strict";
  const O = global.Object;
  const describe = O.getOwnPropertyDescriptor;
  const getter = (proto, key) => describe(proto, key).get;
  const I = {
    __proto__: null,
    global,
    apply: global.Reflect.apply,
    construct: global.Reflect.construct,
    ownKeys: global.Reflect.ownKeys,
    keys: O.keys,
    hasOwn: O.hasOwn,
    is: O.is,
    freeze: O.freeze,
    defineProperty: O.defineProperty,
    getOwnPropertyDescriptor: describe,
    getPrototypeOf: O.getPrototypeOf,
    setPrototypeOf: O.setPrototypeOf,
    ObjectPrototype: O.prototype,
    isArray: global.Array.isArray,
    String: global.String,
    Number: global.Number,
    isNaN: global.Number.isNaN,
    stringify: global.JSON.stringify,
    stringSlice: global.String.prototype.slice,
    stringIndexOf: global.String.prototype.indexOf,
    // The built-in exec reads no overridable property (test() and the flags getter look up
    // `exec` and the flag getters on the object, which the artifact can replace).
    regExpExec: global.RegExp.prototype.exec,
    regExpSource: getter(global.RegExp.prototype, "source"),
    regExpFlagGetters: O.freeze(["hasIndices", "global", "ignoreCase", "multiline", "dotAll", "unicode", "unicodeSets", "sticky"]
      .map((name) => describe(global.RegExp.prototype, name))
      .map((flag, i) => (flag === undefined ? undefined : O.freeze([flag.get, "dgimsuvy"[i]])))
      .filter((entry) => entry !== undefined)),
    RegExp: global.RegExp,
    Error: global.Error,
    InternalError: global.InternalError,
    SyntaxError: global.SyntaxError,
    Promise: global.Promise,
    promiseThen: global.Promise.prototype.then,
    promiseResolve: global.Promise.resolve,
    promiseReject: global.Promise.reject,
    mapForEach: global.Map.prototype.forEach,
    mapGet: global.Map.prototype.get,
    mapHas: global.Map.prototype.has,
    mapSize: getter(global.Map.prototype, "size"),
    setForEach: global.Set.prototype.forEach,
    setHas: global.Set.prototype.has,
    setSize: getter(global.Set.prototype, "size"),
    TypeError: global.TypeError,
    WeakMap: global.WeakMap,
    weakMapGet: global.WeakMap.prototype.get,
    weakMapSet: global.WeakMap.prototype.set,
    WeakSet: global.WeakSet,
    weakSetAdd: global.WeakSet.prototype.add,
    weakSetHas: global.WeakSet.prototype.has,
    Date: global.Date,
    dateGetTime: global.Date.prototype.getTime,
    dateToISOString: global.Date.prototype.toISOString,
  };
  return O.freeze(I);
}
