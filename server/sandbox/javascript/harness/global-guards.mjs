/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only the captured intrinsics `I`.
 *
 * Works around a QuickJS bug that code under test could exploit: Object.defineProperty can
 * change the value of a non-configurable, non-writable data property of the global object
 * (e.g. `Object.defineProperty(globalThis, "undefined", { value: 1 })` succeeds), which would
 * change what `undefined`, NaN or Infinity mean in the test code. The three built-ins that take
 * a descriptor for an arbitrary object (Object.defineProperty, Object.defineProperties,
 * Reflect.defineProperty) are replaced by versions that read the descriptor once and refuse
 * that change, as the specification requires; Proxy refuses the global object as its target,
 * since a proxy would forward the same definition. The originals stay only in this closure.
 */
export function installGlobalGuards(I) {
  "use strict";
  const call = I.apply;
  const global = I.global;
  const O = global.Object;
  const originals = {
    __proto__: null,
    defineProperty: O.defineProperty,
    defineProperties: O.defineProperties,
    reflectDefineProperty: global.Reflect.defineProperty,
    Proxy: global.Proxy,
    revocable: global.Proxy.revocable,
  };
  const FIELDS = ["enumerable", "configurable", "value", "writable", "get", "set"];
  const BOOLEAN_FIELDS = { __proto__: null, enumerable: true, configurable: true, writable: true };

  function typeError(message) {
    return I.construct(I.TypeError, [message]);
  }

  function isObject(value) {
    return (typeof value === "object" && value !== null) || typeof value === "function";
  }

  function toKey(key) {
    return typeof key === "symbol" ? key : I.String(key);
  }

  /** ToPropertyDescriptor into a null-prototype copy, so every field is read exactly once. */
  function toDescriptor(attributes) {
    if (!isObject(attributes)) throw typeError("Property description must be an object");
    const descriptor = { __proto__: null };
    for (let i = 0; i < FIELDS.length; i++) {
      const field = FIELDS[i];
      if (field in attributes) {
        const value = attributes[field];
        descriptor[field] = BOOLEAN_FIELDS[field] ? !!value : value;
      }
    }
    return descriptor;
  }

  /** True if defining `descriptor` would change a frozen (non-configurable, read-only) global value. */
  function changesFrozenGlobal(target, key, descriptor) {
    if (target !== global || !I.hasOwn(descriptor, "value")) return false;
    const current = I.getOwnPropertyDescriptor(global, key);
    if (current === undefined || !I.hasOwn(current, "value") || current.configurable || current.writable) return false;
    return !I.is(current.value, descriptor.value);
  }

  const replacements = {
    defineProperty(target, key, attributes) {
      if (!isObject(target)) throw typeError("Object.defineProperty called on non-object");
      const k = toKey(key);
      const descriptor = toDescriptor(attributes);
      if (changesFrozenGlobal(target, k, descriptor)) throw typeError("property is not configurable");
      return call(originals.defineProperty, O, [target, k, descriptor]);
    },
    defineProperties(target, properties) {
      if (!isObject(target)) throw typeError("Object.defineProperties called on non-object");
      if (properties === null || properties === undefined) throw typeError("cannot convert to object");
      const source = O(properties);
      const keys = I.ownKeys(source);
      const descriptors = { __proto__: null };
      for (let i = 0; i < keys.length; i++) {
        const own = I.getOwnPropertyDescriptor(source, keys[i]);
        if (own === undefined || !own.enumerable) continue;
        const descriptor = toDescriptor(source[keys[i]]);
        if (changesFrozenGlobal(target, keys[i], descriptor)) throw typeError("property is not configurable");
        descriptors[keys[i]] = descriptor;
      }
      return call(originals.defineProperties, O, [target, descriptors]);
    },
    reflectDefineProperty(target, key, attributes) {
      if (!isObject(target)) throw typeError("Reflect.defineProperty called on non-object");
      const k = toKey(key);
      const descriptor = toDescriptor(attributes);
      if (changesFrozenGlobal(target, k, descriptor)) return false;
      return call(originals.reflectDefineProperty, undefined, [target, k, descriptor]);
    },
    revocable(target, handler) {
      if (target === global) throw typeError("a proxy of the global object is not available in the sandbox");
      return call(originals.revocable, undefined, [target, handler]);
    },
  };

  function Proxy(target, handler) {
    if (new.target === undefined) throw typeError("Proxy must be called with new");
    if (target === global) throw typeError("a proxy of the global object is not available in the sandbox");
    return I.construct(originals.Proxy, [target, handler]);
  }

  const replace = (object, name, value) =>
    call(originals.defineProperty, O, [object, name, { __proto__: null, value, writable: true, enumerable: false, configurable: true }]);
  replace(O, "defineProperty", replacements.defineProperty);
  replace(O, "defineProperties", replacements.defineProperties);
  call(originals.defineProperty, O, [replacements.reflectDefineProperty, "name", { __proto__: null, value: "defineProperty", configurable: true }]);
  replace(global.Reflect, "defineProperty", replacements.reflectDefineProperty);
  replace(Proxy, "revocable", replacements.revocable);
  replace(global, "Proxy", Proxy);
}
