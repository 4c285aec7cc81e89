/**
 * The `dualstate` command as users start it: real processes (node, npx) on a mirror of this
 * project with a node_modules of its own, so its compiled-command cache and its .bin link are
 * the test's, not the checkout's.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE } from "../server/cli/usage";

const checkout = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "dualstate-command-"));
const project = join(scratch, "project");
const elsewhere = join(scratch, "elsewhere");

interface Finished {
  code: number | null;
  out: string;
  err: string;
}

function exec(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

const dualstate = (...args: string[]) => exec(process.execPath, [join(project, "bin", "dualstate.mjs"), ...args], { cwd: elsewhere, env: { DATABASE_URL: `file:${join(scratch, "cli.db")}` } });
const cache = () => join(project, "node_modules", ".cache", "dualstate", "cli");
const currentBuild = () => (JSON.parse(readFileSync(join(cache(), "current.json"), "utf8")) as { build: string }).build;

beforeAll(() => {
  // The project's files, its sources linked in place; node_modules holds links to the checkout's
  // packages, but its own .bin and .cache.
  mkdirSync(join(project, "bin"), { recursive: true });
  mkdirSync(join(project, "scripts"));
  mkdirSync(join(project, "node_modules"));
  mkdirSync(elsewhere);
  for (const file of readdirSync(join(checkout, "bin")).filter((name) => name.endsWith(".mjs"))) copyFileSync(join(checkout, "bin", file), join(project, "bin", file));
  copyFileSync(join(checkout, "scripts", "link-dualstate-bin.mjs"), join(project, "scripts", "link-dualstate-bin.mjs"));
  for (const file of ["package.json", "tsconfig.json"]) copyFileSync(join(checkout, file), join(project, file));
  for (const folder of ["server", "prisma", "examples"]) symlinkSync(join(checkout, folder), join(project, folder));
  for (const entry of readdirSync(join(checkout, "node_modules"))) {
    if (entry !== ".bin" && entry !== ".cache") symlinkSync(join(checkout, "node_modules", entry), join(project, "node_modules", entry));
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the compiled command", () => {
  it("is compiled on the first start, by each of four starts at once without a broken one, then reused", async () => {
    const starts = await Promise.all([1, 2, 3, 4].map(() => dualstate("--help")));
    for (const start of starts) expect(start).toEqual({ code: 0, out: USAGE, err: "" });
    const build = currentBuild();
    expect(existsSync(join(cache(), build, "main.mjs"))).toBe(true);

    expect(await dualstate("--version")).toMatchObject({ code: 0, out: expect.stringMatching(/^dualstate \d+\.\d+\.\d+\n$/) });
    expect(currentBuild()).toBe(build);
  }, 120_000);

  it("is compiled again when an input changes", async () => {
    const before = currentBuild();
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(project, "package.json"), later, later);
    expect((await dualstate("--help")).code).toBe(0);
    expect(currentBuild()).not.toBe(before);
  }, 120_000);

  it("runs real commands: validate, a replayed run that escalates, sandboxed and worker-thread guards, a usage error", async () => {
    expect(await dualstate("validate", join(checkout, "examples", "tdd-lru-cache.yaml"))).toMatchObject({ code: 0, out: expect.stringContaining("tdd-lru-cache: valid") });

    const escalation = join(checkout, "examples", "sandbox-escalation");
    const run = await dualstate("run", `${escalation}.yaml`, "--generator", "replay", "--cassette", `${escalation}.cassette.json`, "--no-delay", "--json");
    expect(run.err).toBe("");
    expect(run.code).toBe(4);
    expect(JSON.parse(run.out)).toMatchObject({ status: "escalation", escalation: { step: "write_script" } });

    // The JavaScript sandbox's worker thread and WebAssembly module, found next to their sources.
    writeFileSync(join(scratch, "add.js"), "function add(a, b) { return a + b }\nmodule.exports = { add }\n");
    writeFileSync(join(scratch, "add.test.js"), "const { add } = require('./add');\ntest('adds', () => expect(add(1, 2)).toBe(3));\n");
    const tested = await dualstate("guard", "test", join(scratch, "add.js"), "--test", join(scratch, "add.test.js"));
    expect(JSON.parse(tested.out)).toMatchObject({ passed: true, feedback: "1 test passed: adds" });

    writeFileSync(join(scratch, "answer.json"), '{"a": 1}');
    const checked = await dualstate("guard", "json_schema", join(scratch, "answer.json"), "--option", 'schema={"type":"object","required":["b"]}');
    expect(JSON.parse(checked.out)).toMatchObject({ passed: false, feedback: expect.stringContaining("required property 'b'") });

    expect(await dualstate("nosuch", "--help")).toMatchObject({ code: 2, err: expect.stringContaining('dualstate: unknown command "nosuch"') });
  }, 120_000);
});

describe("npx dualstate", () => {
  it("runs the project's own bin, linked by npm install, from four shells at once and without npm's npx cache", async () => {
    expect((await exec(process.execPath, [join(project, "scripts", "link-dualstate-bin.mjs")], { cwd: elsewhere })).code).toBe(0);
    // Linking twice is harmless.
    expect((await exec(process.execPath, [join(project, "scripts", "link-dualstate-bin.mjs")], { cwd: elsewhere })).code).toBe(0);

    const npmCache = join(scratch, "npm-cache");
    const npx = (...args: string[]) => exec("npx", ["dualstate", ...args], { cwd: project, env: { npm_config_cache: npmCache, npm_config_update_notifier: "false" } });
    const calls = await Promise.all([1, 2, 3, 4].map(() => npx("--help")));
    for (const call of calls) expect({ code: call.code, out: call.out }).toEqual({ code: 0, out: USAGE });
    expect(await npx("nosuch", "--help")).toMatchObject({ code: 2, err: expect.stringContaining('dualstate: unknown command "nosuch"') });
    expect(existsSync(join(npmCache, "_npx"))).toBe(false);
  }, 120_000);

  it("before npm install, the command says to run it", async () => {
    const bare = join(scratch, "bare");
    mkdirSync(join(bare, "bin"), { recursive: true });
    for (const file of ["dualstate.mjs", "compiled-cli.mjs"]) copyFileSync(join(checkout, "bin", file), join(bare, "bin", file));
    copyFileSync(join(checkout, "package.json"), join(bare, "package.json"));
    const started = await exec(process.execPath, [join(bare, "bin", "dualstate.mjs"), "--help"], { cwd: elsewhere });
    expect(started).toEqual({ code: 1, out: "", err: `dualstate: the project's dependencies are not installed; run \`npm install\` in ${bare} first\n` });
  });
});
