import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, runSandbox } from "./test-helpers";

/**
 * Every global the sandbox offers: standard ECMAScript (as QuickJS has it) plus the harness's
 * console and timers, and the artifact's CommonJS `module`, `exports` and `require` (which
 * resolves only the artifact itself and the harness's own modules). The test helpers (test,
 * expect, ...) are not globals: they are constants of the function the tests run in.
 */
const EXPECTED_GLOBALS = [
  "AggregateError", "Array", "ArrayBuffer", "BigInt", "BigInt64Array", "BigUint64Array", "Boolean", "DataView", "Date",
  "Error", "EvalError", "FinalizationRegistry", "Float16Array", "Float32Array", "Float64Array", "Function", "Infinity",
  "Int16Array", "Int32Array", "Int8Array", "InternalError", "Iterator", "JSON", "Map", "Math", "NaN", "Number", "Object",
  "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol",
  "SyntaxError", "TypeError", "URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap",
  "WeakRef", "WeakSet", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval",
  "globalThis", "isFinite", "isNaN", "parseFloat", "parseInt", "undefined", "unescape",
  "clearInterval", "clearTimeout", "console", "exports", "module", "queueMicrotask", "require", "setInterval", "setTimeout",
];

/** Test code probing for a way out; every probe must come back "unavailable". */
const PROBES = `
async function unavailable(attempt) {
  try { await attempt(); return "available"; } catch (error) { return "unavailable: " + String(error); }
}
test("no Node.js globals", () => {
  for (const name of ["process", "Buffer", "global", "fetch", "XMLHttpRequest", "WebSocket", "std", "os", "Deno", "Bun", "__filename"]) {
    expect(typeof globalThis[name]).toBe("undefined");
  }
});
test("no module loading, by require, by import() or by QuickJS's own loader", async () => {
  for (const name of ["fs", "node:fs", "net", "node:net", "http", "child_process", "node:child_process", "process", "os", "std", "module", "worker_threads", "/etc/passwd"]) {
    expect(await unavailable(() => require(name))).toMatch(new RegExp("module .* is not available in the sandbox"));
    expect(await unavailable(() => globalThis.require(name))).toMatch(/is not available in the sandbox/);
    expect(await unavailable(() => import(name))).toMatch(/is not available in the sandbox/);
    expect(await unavailable(() => (0, eval)("import(" + JSON.stringify(name) + ")"))).toMatch(/^unavailable: /);
  }
});
`;

describe("sandbox isolation", () => {
  let directory: string;
  let server: Server;
  let connections = 0;
  let port = 0;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "dualstate-sandbox-"));
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  it("offers no Node.js globals and cannot load modules", async () => {
    const outcome = await runSandbox("", PROBES, { language: "javascript" });
    expectStatus(outcome, "passed");
  });

  it("cannot read a file the host created", async () => {
    const path = join(directory, "secret.txt");
    const secret = `file-secret-${Math.random()}`;
    await writeFile(path, secret);
    const outcome = await runSandbox(
      "",
      `test("read", async () => {
         const path = ${JSON.stringify(path)};
         const attempts = [
           () => require("fs").readFileSync(path, "utf8"),
           () => process.binding("fs"),
           async () => (await import("fs")).readFileSync(path, "utf8"),
           async () => (await import(path)).default,
           async () => (await import("file://" + path)).default,
         ];
         for (const attempt of attempts) {
           let result;
           try { result = await attempt(); } catch (error) { result = "refused: " + String(error); }
           console.log(String(result));
           expect(String(result)).toMatch(/^refused: /);
         }
       });`,
      { language: "javascript" },
    );
    expectStatus(outcome, "passed");
    expect(outcome.status === "passed" && outcome.output).not.toContain(secret);
  });

  it("cannot see the host's environment variables", async () => {
    const secret = `env-secret-${Math.random()}`;
    process.env.DUALSTATE_SANDBOX_TEST_SECRET = secret;
    try {
      const outcome = await runSandbox(
        "",
        `test("env", () => {
           expect(typeof process).toBe("undefined");
           console.log(Object.getOwnPropertyNames(globalThis).sort().join(","));
           const seen = [];
           for (const name of Object.getOwnPropertyNames(globalThis)) {
             try { seen.push(name + "=" + String(globalThis[name])); } catch (error) { seen.push(name + "!"); }
           }
           expect(seen.join("\\n")).not.toContain("DUALSTATE_SANDBOX_TEST_SECRET");
           expect(seen.join("\\n")).not.toContain(${JSON.stringify(secret)});
         });`,
        { language: "javascript" },
      );
      const passed = expectStatus(outcome, "passed");
      expect(passed.output.trim().split(",")).toEqual([...EXPECTED_GLOBALS].sort());
      expect(passed.output).not.toContain(secret);
    } finally {
      delete process.env.DUALSTATE_SANDBOX_TEST_SECRET;
    }
  });

  it("cannot connect to a port the host listens on", async () => {
    const outcome = await runSandbox(
      "",
      `test("network", async () => {
         const url = "http://127.0.0.1:${port}/";
         expect(typeof fetch).toBe("undefined");
         expect(typeof XMLHttpRequest).toBe("undefined");
         expect(typeof WebSocket).toBe("undefined");
         const attempts = [
           () => fetch(url),
           () => new XMLHttpRequest(),
           () => new WebSocket("ws://127.0.0.1:${port}/"),
           async () => (await import("net")).connect(${port}, "127.0.0.1"),
           async () => (await import("http")).get(url),
           async () => import(url),
         ];
         for (const attempt of attempts) {
           let refused = false;
           try { await attempt(); } catch { refused = true; }
           expect(refused).toBe(true);
         }
       });`,
      { language: "javascript" },
    );
    expectStatus(outcome, "passed");
    // Give a (hypothetical) connection time to arrive before checking that none did.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections).toBe(0);
  });
});
