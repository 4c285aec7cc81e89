/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only the captured intrinsics `I`.
 *
 * The harness's assertion errors: ordinary Error objects named "AssertionError", branded in a
 * private WeakSet so the harness can tell its own failed assertions (a failed test, or a failed
 * "(top level)" assertion) from errors the code threw, without trusting anything on the object.
 */
export function createAssertionErrors(I) {
  "use strict";
  const call = I.apply;
  const brand = new I.WeakSet();

  function assertionError(message) {
    const error = I.construct(I.Error, [message]);
    I.defineProperty(error, "name", { __proto__: null, value: "AssertionError", writable: true, enumerable: false, configurable: true });
    call(I.weakSetAdd, brand, [error]);
    return error;
  }

  function isAssertion(value) {
    return (typeof value === "object" && value !== null) ? call(I.weakSetHas, brand, [value]) : false;
  }

  return I.freeze({ __proto__: null, assertionError, isAssertion });
}
