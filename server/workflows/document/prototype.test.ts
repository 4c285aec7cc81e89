import { afterEach, describe, expect, it } from "vitest";
import { parseYaml } from "./parse-yaml";
import { problemsOf } from "./test-helpers";
import { toValue } from "./to-value";

const HOSTILE = '__proto__:\n  polluted: yes\nconstructor:\n  prototype:\n    polluted: yes\nnested:\n  - {"__proto__": {"polluted": "yes"}}\n';

describe("prototype pollution", () => {
  afterEach(() => {
    // Clean up in case a regression did pollute, so other tests are not affected.
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it("rejects the keys through the public loader", () => {
    expect(problemsOf(HOSTILE).map((p) => p.message)).toEqual([
      'key "__proto__" is not allowed',
      'key "constructor" is not allowed',
      'key "__proto__" is not allowed',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("cannot pollute even with the key check switched off", () => {
    const { doc, problems } = parseYaml(HOSTILE);
    const value = toValue(doc, HOSTILE, problems, { allowReservedKeys: true }) as Record<string, unknown>;
    expect(problems.items).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: "yes" });
    const nested = (value.nested as Record<string, unknown>[])[0]!;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.keys(nested)).toEqual(["__proto__"]);
  });
});
