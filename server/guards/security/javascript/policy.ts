/**
 * What JavaScript/TypeScript code may not reach. Paths are segment lists: ["process", "env"],
 * ["fs", "readFileSync"], ["eval"]. The resolver turns expressions into such paths; this module
 * says which paths are forbidden and under which rule.
 */
import type { SecurityRule } from "../finding";

export type Path = readonly string[];

/**
 * Pseudo roots for values reached through `.constructor` and prototypes, so that chains stay
 * visible through aliases: `const C = [].constructor; C.constructor("…")` is still Function.
 * - CONSTRUCTOR: `x.constructor` of a plain value (`this`, a variable, a literal): a class.
 * - MAYBE_FUNCTION_CONSTRUCTOR: `a.b.constructor`; `a.b` may be a method, whose constructor is Function.
 * - PROTOTYPE: a prototype reached indirectly (`x.__proto__`, `Object.getPrototypeOf(x)`).
 */
export const CONSTRUCTOR = "<constructor>";
export const MAYBE_FUNCTION_CONSTRUCTOR = "<constructor?>";
export const PROTOTYPE = "<prototype>";

export interface Forbidden {
  /** Dotted name, matched against allowCalls and shown in the feedback. */
  key: string;
  rule: SecurityRule;
}

/** Names of the global object itself: `globalThis.process` is `process`. */
export const GLOBAL_OBJECT_NAMES: ReadonlySet<string> = new Set(["globalThis", "window", "global", "self"]);

/** Globals whose mere use reaches outside the code. */
const CAPABILITY_GLOBALS: Record<string, SecurityRule> = {
  eval: "eval-code",
  fetch: "network",
  XMLHttpRequest: "network",
  WebSocket: "network",
  EventSource: "network",
  WebTransport: "network",
  RTCPeerConnection: "network",
  importScripts: "network",
  Worker: "spawn-process",
  SharedWorker: "spawn-process",
};

/**
 * Built-in objects shared by all code in the realm: writing to them, or to their prototypes,
 * changes every other piece of code (prototype pollution, Error.prepareStackTrace tricks).
 * `console` is left out on purpose: tests commonly replace console.log to capture output.
 */
export const SHARED_BUILTINS: ReadonlySet<string> = new Set([
  "Object", "Array", "Function", "String", "Number", "Boolean", "Symbol", "BigInt", "Promise", "Map", "Set",
  "WeakMap", "WeakSet", "WeakRef", "RegExp", "Date", "Error", "TypeError", "RangeError", "SyntaxError",
  "ReferenceError", "EvalError", "URIError", "AggregateError", "ArrayBuffer", "SharedArrayBuffer", "DataView",
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "Iterator", "JSON", "Math", "Reflect",
  "Atomics", "Intl", "Proxy",
]);

/** Other globals the resolver follows so that rules can recognise them (and their shadowing). */
const OTHER_TRACKED = ["process", "require", "module", "Deno", "Bun", "navigator", "setTimeout", "setInterval", "atob", "Buffer", "decodeURIComponent", "unescape"];

export const TRACKED_GLOBALS: ReadonlySet<string> = new Set([...GLOBAL_OBJECT_NAMES, ...Object.keys(CAPABILITY_GLOBALS), ...SHARED_BUILTINS, ...OTHER_TRACKED]);

const PROCESS_MEMBERS: Record<string, SecurityRule> = {
  env: "environment",
  exit: "exit-process",
  exitCode: "exit-process",
  reallyExit: "exit-process",
  abort: "exit-process",
  kill: "exit-process",
  _kill: "exit-process",
  binding: "spawn-process",
  _linkedBinding: "spawn-process",
  dlopen: "spawn-process",
  execve: "spawn-process",
  send: "spawn-process",
  channel: "spawn-process",
  disconnect: "spawn-process",
  setuid: "environment",
  setgid: "environment",
  seteuid: "environment",
  setegid: "environment",
  setgroups: "environment",
  initgroups: "environment",
  chdir: "filesystem",
  report: "filesystem",
  mainModule: "builtin-module",
  getBuiltinModule: "builtin-module",
};

/** `module.exports = …` is how CommonJS code exports; the rest of `module` reaches the loader. */
const MODULE_OBJECT_SAFE = new Set(["exports", "id", "filename", "loaded", "path"]);

const DENO_BUN_MEMBERS: Record<string, SecurityRule> = {
  env: "environment",
  exit: "exit-process",
  run: "spawn-process",
  Command: "spawn-process",
  spawn: "spawn-process",
  spawnSync: "spawn-process",
  $: "spawn-process",
  kill: "exit-process",
  connect: "network",
  connectTls: "network",
  listen: "network",
  listenTls: "network",
  serve: "network",
  resolveDns: "network",
  udpSocket: "network",
};

/**
 * Modules forbidden as a whole: importing them is a finding, and so is every member used through
 * them. Node built-ins not listed (path, util, events, crypto, assert, url, buffer, stream, zlib,
 * timers, string_decoder, querystring, readline, perf_hooks, async_hooks, …) compute and pass;
 * an unknown "node:" name is treated as forbidden. Third-party packages that wrap the same
 * capabilities are listed too.
 */
export const FORBIDDEN_MODULES: Readonly<Record<string, SecurityRule>> = {
  child_process: "spawn-process",
  cluster: "spawn-process",
  worker_threads: "spawn-process",
  fs: "filesystem",
  "fs/promises": "filesystem",
  net: "network",
  http: "network",
  https: "network",
  http2: "network",
  dgram: "network",
  dns: "network",
  "dns/promises": "network",
  tls: "network",
  vm: "eval-code",
  v8: "eval-code",
  inspector: "eval-code",
  "inspector/promises": "eval-code",
  repl: "eval-code",
  module: "builtin-module",
  os: "environment",
  sqlite: "filesystem",
  wasi: "filesystem",
  trace_events: "filesystem",
  tty: "filesystem",
  // third-party wrappers
  execa: "spawn-process",
  shelljs: "spawn-process",
  "cross-spawn": "spawn-process",
  "node-pty": "spawn-process",
  axios: "network",
  "node-fetch": "network",
  "cross-fetch": "network",
  "isomorphic-fetch": "network",
  got: "network",
  ky: "network",
  request: "network",
  superagent: "network",
  undici: "network",
  needle: "network",
  ws: "network",
  "socket.io-client": "network",
  "fs-extra": "filesystem",
  "graceful-fs": "filesystem",
  rimraf: "filesystem",
  mkdirp: "filesystem",
  dotenv: "environment",
  vm2: "eval-code",
};

/** Node built-ins that only compute; under a "node:" prefix anything else is forbidden. */
const HARMLESS_BUILTINS = new Set([
  "assert", "assert/strict", "async_hooks", "buffer", "console", "constants", "crypto", "diagnostics_channel",
  "events", "path", "path/posix", "path/win32", "perf_hooks", "punycode", "querystring", "readline",
  "readline/promises", "stream", "stream/consumers", "stream/promises", "stream/web", "string_decoder",
  "test", "timers", "timers/promises", "url", "util", "util/types", "zlib",
]);

/** The rule a module import falls under, or undefined when importing it is harmless. */
export function moduleRule(specifier: string): SecurityRule | undefined {
  const name = specifier.replace(/^node:/, "");
  const rule = FORBIDDEN_MODULES[name];
  if (rule) return rule;
  if (specifier.startsWith("node:") && !HARMLESS_BUILTINS.has(name)) return "builtin-module";
  return undefined;
}

/**
 * The path root a module's value gets. `require("module")` is the Module class, which must not be
 * confused with CommonJS's own `module` object; `process` is the same object as the global.
 */
export function moduleRoot(name: string): string {
  return name === "module" ? "Module" : name;
}

const MODULE_BY_ROOT: Record<string, SecurityRule> = Object.fromEntries(
  Object.entries(FORBIDDEN_MODULES).map(([name, rule]) => [moduleRoot(name), rule]),
);

function key(path: Path, length: number): string {
  return path.slice(0, length).join(".");
}

/** The shortest forbidden prefix of a path, if any: ["process","env","HOME"] → process.env. */
export function forbiddenPrefix(path: Path): Forbidden | undefined {
  const [root, member] = path;
  if (root === undefined) return undefined;
  const capability = CAPABILITY_GLOBALS[root];
  if (capability) return { key: root, rule: capability };
  if (member === undefined) return undefined;
  const moduleRuleForRoot = MODULE_BY_ROOT[root];
  if (moduleRuleForRoot) return { key: key(path, 2), rule: moduleRuleForRoot };
  switch (root) {
    case "process": {
      const rule = PROCESS_MEMBERS[member];
      return rule ? { key: key(path, 2), rule } : undefined;
    }
    case "require":
      return member === "resolve" ? undefined : { key: key(path, 2), rule: "builtin-module" };
    case "module":
      return MODULE_OBJECT_SAFE.has(member) ? undefined : { key: key(path, 2), rule: "builtin-module" };
    case "Deno":
    case "Bun":
      return { key: key(path, 2), rule: DENO_BUN_MEMBERS[member] ?? "builtin-module" };
    case "Function":
      return member === "prototype" ? undefined : { key: key(path, 2), rule: "eval-code" };
    case "navigator":
      return member === "sendBeacon" ? { key: key(path, 2), rule: "network" } : undefined;
    case "import.meta":
      return member === "require" ? { key: key(path, 2), rule: "builtin-module" } : undefined; // Bun
    default:
      return undefined;
  }
}

/**
 * Objects that hand out capabilities through their members. Used as plain values (passed on,
 * stored, spread) they escape the analysis, so that use is itself a finding.
 */
export function capabilityRoot(path: Path): SecurityRule | undefined {
  if (path.length === 2 && path[0] === "Function" && path[1] === "prototype") return "eval-code";
  if (path.length !== 1) return undefined;
  const [root = ""] = path;
  if (root === "globalThis") return "obfuscation";
  if (root === "process") return "environment";
  if (root === "require" || root === "module") return "builtin-module";
  if (root === "Deno" || root === "Bun") return "builtin-module";
  if (root === "Function" || root === MAYBE_FUNCTION_CONSTRUCTOR) return "eval-code";
  return MODULE_BY_ROOT[root];
}
