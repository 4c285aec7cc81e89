/**
 * GUEST CODE (see intrinsics.mjs): self-contained, uses only `I`, the formatter `F` and the
 * `provided` modules (frozen harness objects, built in bootstrap-source.mjs).
 *
 * The module system inside the sandbox, CommonJS style (prepare-source.ts compiles every
 * import to require()). The resolution rule:
 * - a relative specifier ("./solution", "../src/lru-cache", "./index.js", ".", "..") is the
 *   artifact: there is only one module under test, whatever the tests call its file;
 * - the names in `provided` are the harness's own modules (assert, node:test, vitest, ...);
 *   the artifact gets only the assert modules and the interop helpers, not the test
 *   frameworks, so it cannot register, skip or filter tests;
 * - anything else fails with "module 'x' is not available in the sandbox", at the line that
 *   asked for it. Nothing is ever read from the host: there is no file system to resolve in.
 * The tables are null-prototype objects in this closure and every provided module is frozen,
 * so no code can swap what another module gets (there is no require.cache to tamper with).
 *
 * The artifact is global code with `module`, `exports` and `require` as ordinary globals of
 * its own; the tests run inside a function (see session.mjs) that gets their own `module`,
 * `exports` and a require() bound to the tests' table.
 */
export function createModules(I, F, provided) {
  "use strict";
  const call = I.apply;
  const ARTIFACT_MODULES = ["assert", "node:assert", "assert/strict", "node:assert/strict", "tslib"];
  const SIMPLE_NAME = new I.RegExp("^[A-Za-z0-9@._/:-]{1,100}$");
  const artifactModule = { exports: {}, id: ".", filename: "/sandbox/artifact.js", loaded: false };
  const testsModule = { exports: {}, id: "tests", filename: "/sandbox/tests.js", loaded: false };

  const forTests = { __proto__: null };
  const forArtifact = { __proto__: null };
  const names = I.keys(provided);
  for (let i = 0; i < names.length; i++) forTests[names[i]] = provided[names[i]];
  for (let i = 0; i < ARTIFACT_MODULES.length; i++) forArtifact[ARTIFACT_MODULES[i]] = provided[ARTIFACT_MODULES[i]];

  function isRelative(specifier) {
    if (specifier === "." || specifier === "..") return true;
    const head = F.slice(specifier, 0, 3);
    return F.slice(head, 0, 2) === "./" || head === "../";
  }

  function quoted(specifier) {
    return call(I.regExpExec, SIMPLE_NAME, [specifier]) !== null ? "'" + specifier + "'" : F.formatValue(F.slice(specifier, 0, 100));
  }

  function unavailable(specifier, role) {
    const offered = role === "tests"
      ? "the tests can require or import the code under test by any relative path (such as './solution') and assert, node:assert, node:assert/strict, node:test, vitest and @jest/globals"
      : "the artifact can require assert, node:assert and node:assert/strict (test frameworks are for the test code only)";
    return I.construct(I.Error, ["module " + quoted(specifier) + " is not available in the sandbox: " + offered]);
  }

  function makeRequire(table, role) {
    const require = (specifier) => {
      if (typeof specifier !== "string") throw I.construct(I.TypeError, ["require() needs a module name (a string), got " + F.formatValue(specifier)]);
      if (isRelative(specifier)) return artifactModule.exports;
      if (I.hasOwn(table, specifier)) return table[specifier];
      throw unavailable(specifier, role);
    };
    I.setPrototypeOf(require, null); // no require.cache or require.resolve, not even planted ones
    return I.freeze(require);
  }

  const requireForArtifact = makeRequire(forArtifact, "artifact");
  const requireForTests = makeRequire(forTests, "tests");

  /** The artifact's CommonJS globals, before it runs: ordinary properties it may shadow or change. */
  function installArtifactGlobals() {
    const define = (name, value) => I.defineProperty(I.global, name, { __proto__: null, value, writable: true, enumerable: false, configurable: true });
    define("module", artifactModule);
    define("exports", artifactModule.exports);
    define("require", requireForArtifact);
  }

  /** After the artifact ran: its ES exports (an object of getters, or undefined) join module.exports. */
  function artifactLoaded(getters) {
    artifactModule.loaded = true;
    const target = artifactModule.exports;
    if (getters === undefined || typeof getters !== "object" || getters === null) return;
    if ((typeof target !== "object" && typeof target !== "function") || target === null) return;
    const keys = I.ownKeys(getters);
    for (let i = 0; i < keys.length; i++) {
      const descriptor = I.getOwnPropertyDescriptor(getters, keys[i]);
      if (descriptor === undefined || typeof descriptor.get !== "function") continue;
      try {
        I.defineProperty(target, keys[i], { __proto__: null, get: descriptor.get, enumerable: true, configurable: true });
      } catch {
        // The artifact froze or sealed its exports object: that export stays as the artifact left it.
      }
    }
    try {
      I.defineProperty(target, "__esModule", { __proto__: null, value: true, enumerable: false, configurable: true });
    } catch {
      // Already defined (the transpiler marks modules with imports).
    }
  }

  /** Runs the wrapped test code: outer(helpers) returns the function holding the tests' body. */
  /** Its value is the body's: a promise when the tests await at their top level (the host awaits it). */
  function loadTests(outer, helpers) {
    const body = call(outer, undefined, [helpers]);
    const value = call(body, testsModule.exports, [testsModule.exports, requireForTests, testsModule, "/sandbox/tests.js", "/sandbox"]);
    testsModule.loaded = true;
    return value;
  }

  return I.freeze({ __proto__: null, installArtifactGlobals, artifactLoaded, loadTests });
}
