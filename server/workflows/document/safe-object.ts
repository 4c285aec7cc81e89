/**
 * Keys that reach object prototypes when code later does `target[key] = …`
 * or merges objects; no workflow field is named like this.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Sets an own, ordinary property. `obj[key] = value` with key `__proto__`
 * would call the prototype setter instead and replace the object's prototype;
 * defineProperty always creates a plain data property, so even a reserved key
 * that slipped through could not pollute anything.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
