/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only the captured intrinsics `I`.
 *
 * Renders values for assertion messages and console output, JS-literal style and bounded in
 * size. It never calls getters or toString/valueOf of the value (those are artifact code that
 * could throw or lie); proxies can still run traps, so every step is guarded.
 */
export function createFormatter(I) {
  "use strict";
  const call = I.apply;
  const ABSENT = { __proto__: null };
  const ACCESSOR = { __proto__: null };
  const IDENTIFIER = new I.RegExp("^[A-Za-z_$][A-Za-z0-9_$]*$");
  /** Map/Set entries rendered at most; a message never needs more, and huge ones would be slow. */
  const MAX_COLLECTED = 20;

  /** Harness-private growable lists: null-prototype, so no inherited setter can intercept a write. */
  function newList() {
    return { __proto__: null, length: 0 };
  }

  function append(list, value) {
    list[list.length] = value;
    list.length += 1;
  }

  function slice(text, start, end) {
    return call(I.stringSlice, text, [start, end]);
  }

  /** The value of an own data property, or ABSENT / ACCESSOR; never runs a getter. */
  function ownData(object, key) {
    let descriptor;
    try {
      descriptor = I.getOwnPropertyDescriptor(object, key);
    } catch {
      return ABSENT;
    }
    if (descriptor === undefined) return ABSENT;
    if (I.hasOwn(descriptor, "get") || I.hasOwn(descriptor, "set")) return ACCESSOR;
    return descriptor.value;
  }

  function truncate(text, max) {
    return text.length <= max ? text : slice(text, 0, max - 1) + "…";
  }

  /** A quoted string, shortened so that its closing quote survives the final truncation. */
  function quote(text, max) {
    const keep = max > 40 ? max - 20 : max;
    return I.stringify(text.length > keep ? slice(text, 0, keep) + "…" : text);
  }

  function functionName(fn) {
    const name = ownData(fn, "name");
    return typeof name === "string" && name !== "" ? name : "(anonymous)";
  }

  function isBrand(getterFn, value) {
    try {
      call(getterFn, value, []);
      return true;
    } catch {
      return false;
    }
  }

  function constructorName(value) {
    let proto;
    try {
      proto = I.getPrototypeOf(value);
    } catch {
      return "";
    }
    if (proto === null || proto === I.ObjectPrototype) return "";
    const ctor = ownData(proto, "constructor");
    return typeof ctor === "function" ? functionName(ctor) : "";
  }

  function isError(value) {
    try {
      return value instanceof I.Error;
    } catch {
      return false;
    }
  }

  /** A regular expression's flags, read from its internal slots (see intrinsics.mjs). */
  function regExpFlags(regExp) {
    let flags = "";
    for (let i = 0; i < I.regExpFlagGetters.length; i++) {
      const entry = I.regExpFlagGetters[i];
      if (call(entry[0], regExp, [])) flags += entry[1];
    }
    return flags;
  }

  /** Does `regExp` match `text`? The built-in exec, never the object's own or patched methods. */
  function matches(regExp, text) {
    return call(I.regExpExec, regExp, [text]) !== null;
  }

  function formatKey(key) {
    if (typeof key === "symbol") return "[" + I.String(key) + "]";
    return call(I.regExpExec, IDENTIFIER, [key]) !== null ? key : I.stringify(key);
  }

  function formatObject(value, depth, max, seen) {
    for (let i = 0; i < seen.length; i++) if (seen[i] === value) return "[Circular]";
    append(seen, value);
    try {
      return formatContainer(value, depth, max, seen);
    } finally {
      seen.length -= 1;
    }
  }

  /** Renders `count` items, stopping once `max` characters are used; `total` may exceed `count`. */
  function formatList(open, close, count, itemAt, max, total = count) {
    let out = open;
    for (let i = 0; i < count; i++) {
      if (out.length > max) return out + (i > 0 ? ", " : "") + "… " + (total - i) + " more" + close;
      out += (i > 0 ? ", " : "") + itemAt(i);
    }
    return out + (total > count ? ", … " + (total - count) + " more" : "") + close;
  }

  function formatContainer(value, depth, max, seen) {
    const inner = (item) => format(item, depth + 1, max, seen);
    if (I.isArray(value)) {
      if (depth >= 3) return "[Array]";
      const length = ownData(value, "length");
      return formatList("[", "]", typeof length === "number" ? length : 0, (i) => {
        const item = ownData(value, I.String(i));
        return item === ACCESSOR ? "[Getter]" : item === ABSENT ? "<empty>" : inner(item);
      }, max);
    }
    if (isBrand(I.mapSize, value)) {
      if (depth >= 3) return "[Map]";
      const size = call(I.mapSize, value, []);
      const entries = newList();
      call(I.mapForEach, value, [(v, k) => {
        if (entries.length < MAX_COLLECTED) append(entries, inner(k) + " => " + inner(v));
      }]);
      return formatList("Map(" + size + ") {", "}", entries.length, (i) => entries[i], max, size);
    }
    if (isBrand(I.setSize, value)) {
      if (depth >= 3) return "[Set]";
      const size = call(I.setSize, value, []);
      const items = newList();
      call(I.setForEach, value, [(v) => {
        if (items.length < MAX_COLLECTED) append(items, inner(v));
      }]);
      return formatList("Set(" + size + ") {", "}", items.length, (i) => items[i], max, size);
    }
    if (isBrand(I.dateGetTime, value)) {
      const time = call(I.dateGetTime, value, []);
      return I.isNaN(time) ? "Invalid Date" : "Date(" + call(I.dateToISOString, value, []) + ")";
    }
    if (isBrand(I.regExpSource, value)) return "/" + call(I.regExpSource, value, []) + "/" + regExpFlags(value);
    if (isError(value)) {
      const name = ownData(value, "name");
      const message = ownData(value, "message");
      const label = typeof name === "string" ? name : constructorName(value) || "Error";
      return typeof message === "string" && message !== "" ? label + ": " + truncate(message, max) : label;
    }
    const prefix = constructorName(value);
    if (depth >= 3) return prefix ? "[" + prefix + "]" : "[Object]";
    const keys = I.keys(value);
    if (keys.length === 0) return prefix ? prefix + " {}" : "{}";
    return formatList((prefix ? prefix + " " : "") + "{ ", " }", keys.length, (i) => {
      const item = ownData(value, keys[i]);
      return formatKey(keys[i]) + ": " + (item === ACCESSOR ? "[Getter]" : item === ABSENT ? "undefined" : inner(item));
    }, max);
  }

  function format(value, depth, max, seen) {
    switch (typeof value) {
      case "string":
        return quote(value, depth === 0 ? max : 60);
      case "number":
        return I.is(value, -0) ? "-0" : I.String(value);
      case "bigint":
        return I.String(value) + "n";
      case "symbol":
      case "boolean":
      case "undefined":
        return I.String(value);
      case "function":
        return "[Function " + functionName(value) + "]";
      default:
        return value === null ? "null" : formatObject(value, depth, max, seen);
    }
  }

  /** A bounded rendering of any value; never throws. */
  function formatValue(value, max = 200) {
    try {
      return truncate(format(value, 0, max, newList()), max);
    } catch {
      return "[unprintable value]";
    }
  }

  /** console.log-style: strings as they are, other values rendered. */
  function formatArgs(args, max) {
    let out = "";
    for (let i = 0; i < args.length && out.length <= max; i++) {
      const arg = args[i];
      out += (i > 0 ? " " : "") + (typeof arg === "string" ? arg : formatValue(arg, max));
    }
    return out.length > max ? slice(out, 0, max) : out;
  }

  return I.freeze({ __proto__: null, formatValue, formatArgs, ownData, ABSENT, ACCESSOR, functionName, isError, newList, append, slice, regExpFlags, matches });
}
