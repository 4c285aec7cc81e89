/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F` and
 * `isAssertion` (the harness's brand check for its own assertion errors).
 *
 * Turns anything thrown into [kind, text] for the host. Kinds:
 * - "assertion": an assertion of this harness failed;
 * - "memory" / "stack": QuickJS ran out of memory (or string length) / call stack;
 * - "interrupted": the interrupt handler stopped the code (wall clock or a host-side limit);
 * - "error": anything else.
 * The text is "Name: message (at tests.ts:3:7)", with the first artifact/tests stack frame,
 * so the reader sees where it happened without harness frames. It reads only own data
 * properties, so a throwing getter or a tampered Error.prototype cannot derail it.
 */
export function createErrorDescriber(I, F, isAssertion) {
  "use strict";
  const call = I.apply;
  // The host evaluates the code under these file names (see sandbox-run.mjs).
  const FRAME = new I.RegExp("\\b((?:artifact|tests)\\.(?:js|ts):\\d+(?::\\d+)?)");
  const ENGINE_KINDS = { __proto__: null, "out of memory": "memory", "string too long": "memory", "stack overflow": "stack", interrupted: "interrupted" };

  /** "tests.ts:3:7": the first frame of the error's stack in the artifact or the tests, or "". */
  function location(error) {
    const stack = F.ownData(error, "stack");
    if (typeof stack !== "string") return "";
    const match = call(I.regExpExec, FRAME, [stack]);
    return match === null ? "" : match[1];
  }

  function at(error) {
    const where = location(error);
    return where === "" ? "" : " (at " + where + ")";
  }

  function errorName(error) {
    let object = error;
    for (let depth = 0; depth < 8 && object !== null; depth++) {
      const name = F.ownData(object, "name");
      if (typeof name === "string") return name;
      try {
        object = I.getPrototypeOf(object);
      } catch {
        break;
      }
    }
    return "Error";
  }

  /** QuickJS reports its limits as InternalErrors (and nesting too deep to parse as a SyntaxError). */
  function engineKind(error, message) {
    const kind = typeof message === "string" ? ENGINE_KINDS[message] : undefined;
    if (kind === undefined) return "error";
    let proto;
    try {
      proto = I.getPrototypeOf(error);
    } catch {
      return "error";
    }
    if (proto === I.InternalError.prototype || (kind === "stack" && proto === I.SyntaxError.prototype)) return kind;
    return "error";
  }

  function describe(error) {
    if (isAssertion(error)) {
      const message = F.ownData(error, "message");
      return ["assertion", (typeof message === "string" ? message : "assertion failed") + at(error)];
    }
    if ((typeof error !== "object" && typeof error !== "function") || error === null) {
      return ["error", "threw a non-Error value: " + F.formatValue(error)];
    }
    if (!F.isError(error)) return ["error", "threw a non-Error value: " + F.formatValue(error)];
    const message = F.ownData(error, "message");
    const text = typeof message === "string" && message !== "" ? errorName(error) + ": " + message : errorName(error);
    return [engineKind(error, message), F.slice(text, 0, 2000) + at(error)];
  }

  /** Never throws: if describing fails the error is reported as such (usually memory is exhausted). */
  function describeError(error) {
    try {
      return describe(error);
    } catch {
      return ["memory", "an error was thrown that could not be described (the sandbox is probably out of memory)"];
    }
  }

  return I.freeze({ __proto__: null, describeError, location });
}
