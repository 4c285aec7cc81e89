import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { accountEmailProblem } from "../auth/account-email";
import { EnvError, parseEnv } from "../env";
import { projectRoot } from "../persistence/project-root";
import { main } from "./main";
import { runNext, runWebServer } from "./next-process";
import { USAGE } from "./usage";

const WORKER_DEFAULTS = {
  DUALSTATE_EMBEDDED_WORKER: "true",
  DUALSTATE_WORKER_CONCURRENCY: 2,
  DUALSTATE_LEASE_SECONDS: 30,
  DUALSTATE_ESCALATION_TIMEOUT_HOURS: 72,
  DUALSTATE_SQLITE_SYNCHRONOUS: "FULL",
  DUALSTATE_ADMIN_EMAIL: "admin@dualstate.localhost",
  DUALSTATE_DRAIN_SECONDS: 30,
  // Escalation reminders 24 hours before the deadline (sent only when SMTP is configured).
  DUALSTATE_REMINDER_HOURS: [24],
  // Slack's Web API (used only when a Slack bot token is set).
  DUALSTATE_SLACK_API_URL: "https://slack.com/api",
};

// No test here may build or start Next.js, or touch the real .next folder: if option parsing
// ever regressed, serve() would get this far.
vi.mock("./next-process", () => ({ runNext: vi.fn(async () => 0), runWebServer: vi.fn(async () => 0) }));
vi.mock("./build-fingerprint", () => ({
  computeBuildFingerprint: vi.fn(() => "fingerprint"),
  isBuildStale: vi.fn(() => true),
  recordBuildFingerprint: vi.fn(),
}));

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) }, out, err, text: () => ({ out: out.join(""), err: err.join("") }) };
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "dualstate-cli-test-"));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => {
  vi.mocked(runNext).mockClear();
  vi.mocked(runWebServer).mockClear();
});

/** A DATABASE_URL in the temp folder, and the file it points at. */
function tempDatabase(name: string) {
  const path = join(folder, name);
  return { path, env: { DATABASE_URL: `file:${path}` } };
}

async function cli(argv: string[], env: Record<string, string | undefined> = tempDatabase("unused.db").env) {
  const io = capture();
  const code = await main(argv, env as NodeJS.ProcessEnv, io.io);
  return { code, ...io.text() };
}

describe("dualstate help and version", () => {
  it.each([["--help"], ["-h"], ["help"], ["start", "--help"], ["db", "migrate", "-h"]])("%s prints the usage on stdout and exits 0", async (...argv) => {
    const { code, out, err } = await cli(argv);
    expect(code).toBe(0);
    expect(out).toContain(USAGE);
    expect(out).toContain("Usage: dualstate <command>");
    expect(err).toBe("");
  });

  it.each([
    ["run", "--help"],
    ["validate", "-h"],
    ["runs", "list", "--help"],
    ["runs", "--help"],
    ["runs", "report", "r1", "c1", "--help"],
    ["escalations", "approve", "abc", "--help"],
    ["provenance", "export", "-h"],
  ])("a real command with %s %s prints the usage and exits 0, without reading the environment", async (...argv) => {
    const { code, out, err } = await cli(argv, { PORT: "not a port", DATABASE_URL: "mysql://nope" });
    expect(code).toBe(0);
    expect(out).toContain(USAGE);
    expect(err).toBe("");
  });

  it.each([["--version"], ["-v"]])("%s prints dualstate and the package.json version", async (flag) => {
    const version = (JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")) as { version: string }).version;
    const { code, out, err } = await cli([flag]);
    expect(code).toBe(0);
    expect(out.trim()).toBe(`dualstate ${version}`);
    expect(err).toBe("");
  });
});

describe("dualstate usage errors exit 2 with the usage on stderr", () => {
  it("no command", async () => {
    const { code, out, err } = await cli([]);
    expect(code).toBe(2);
    expect(err).toContain("missing command");
    expect(err).toContain(USAGE);
    expect(out).toBe("");
  });

  it("an unknown command is named", async () => {
    const { code, out, err } = await cli(["frobnicate"]);
    expect(code).toBe(2);
    expect(err).toContain('unknown command "frobnicate"');
    expect(err).toContain(USAGE);
    expect(out).toBe("");
  });

  // The README promises exit 2 for a wrong command line; asking for help does not make it right.
  it.each([
    [["nosuch", "--help"], 'dualstate: unknown command "nosuch"'],
    [["nosuch", "-h"], 'dualstate: unknown command "nosuch"'],
    [["nosuch", "run", "--help"], 'dualstate: unknown command "nosuch"'],
    [["--frobnicate", "--help"], 'dualstate: unknown option "--frobnicate"'],
    [["db", "drop", "--help"], 'dualstate db: unknown subcommand "drop" (migrate)'],
    [["runs", "delete", "-h"], 'dualstate runs: unknown subcommand "delete" (list, show, report)'],
    [["escalations", "approvee", "x", "--help"], 'dualstate escalations: unknown subcommand "approvee"'],
    [["constructor", "--help"], 'dualstate: unknown command "constructor"'],
    [["__proto__", "--help"], 'dualstate: unknown command "__proto__"'],
  ])("%j is a usage error: exit 2, the problem and the usage on stderr, nothing on stdout", async (argv, message) => {
    const { code, out, err } = await cli(argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain(USAGE);
    expect(out).toBe("");
  });

  it("an unknown top-level option is named", async () => {
    const { code, err } = await cli(["--frobnicate"]);
    expect(code).toBe(2);
    expect(err).toContain('"--frobnicate"');
  });

  it("`start --bogus` names the option and starts nothing", async () => {
    const database = tempDatabase("bogus.db");
    const { code, out, err } = await cli(["start", "--bogus"], database.env);
    expect(code).toBe(2);
    expect(err).toContain("--bogus");
    expect(err).toContain(USAGE);
    expect(out).toBe("");
    expect(existsSync(database.path)).toBe(false);
    expect(runNext).not.toHaveBeenCalled();
    expect(runWebServer).not.toHaveBeenCalled();
  });

  it.each([
    ["start", "--port", "99999"],
    ["start", "--port=99999"],
    ["start", "-p", "0"],
    ["dev", "--port", "abc"],
    ["dev", "--port", "80.5"],
  ])("%s %s %s names --port and fails before migrating", async (...argv) => {
    const database = tempDatabase(`port-${argv.join("_").replace(/[^a-z0-9]/gi, "")}.db`);
    const { code, out, err } = await cli(argv, database.env);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`^dualstate ${argv[0]}: --port: `));
    expect(out).toBe("");
    expect(existsSync(database.path)).toBe(false);
    expect(runNext).not.toHaveBeenCalled();
    expect(runWebServer).not.toHaveBeenCalled();
  });

  it("`start` with a positional argument is a usage error", async () => {
    const database = tempDatabase("positional.db");
    const { code } = await cli(["start", "now"], database.env);
    expect(code).toBe(2);
    expect(existsSync(database.path)).toBe(false);
  });

  it("`db` without a subcommand", async () => {
    const { code, err } = await cli(["db"]);
    expect(code).toBe(2);
    expect(err).toContain("missing subcommand");
    expect(err).toContain(USAGE);
  });

  it("`db` with an unknown subcommand names it", async () => {
    const { code, err } = await cli(["db", "drop"]);
    expect(code).toBe(2);
    expect(err).toContain('"drop"');
  });

  it("`db migrate` with an extra argument names it", async () => {
    const database = tempDatabase("extra.db");
    const { code, err } = await cli(["db", "migrate", "now"], database.env);
    expect(code).toBe(2);
    expect(err).toContain('"now"');
    expect(existsSync(database.path)).toBe(false);
  });
});

describe("dualstate db migrate", () => {
  it("creates the SQLite file and applies the migrations, then reports it up to date", async () => {
    const database = tempDatabase(join("nested", "dir", "x.db"));
    const first = await cli(["db", "migrate"], database.env);
    expect(first.code).toBe(0);
    expect(first.err).toBe("");
    expect(first.out).toContain(database.path);
    expect(first.out).toMatch(/applied \d+ migration\(s\)/);
    expect(existsSync(database.path)).toBe(true);

    const second = await cli(["db", "migrate"], database.env);
    expect(second.code).toBe(0);
    expect(second.err).toBe("");
    expect(second.out).toContain("up to date");
    expect(second.out).toContain(database.path);
  });

  it("refuses a database migrated by a newer version: exit 1, a message, no stack trace", async () => {
    const database = tempDatabase("newer.db");
    expect((await cli(["db", "migrate"], database.env)).code).toBe(0);
    const sqlite = new Database(database.path);
    sqlite.prepare(`INSERT INTO "_dualstate_migrations" ("name", "checksum", "appliedAt") VALUES ('29990101000000_future', 'x', 'now')`).run();
    sqlite.close();

    const { code, out, err } = await cli(["db", "migrate"], database.env);
    expect(code).toBe(1);
    expect(err).toContain("29990101000000_future");
    expect(err).not.toContain("    at ");
    expect(out).toBe("");
  });
});

describe("dualstate start and dev (Next.js mocked)", () => {
  it("start migrates, builds when stale, then serves on the requested port with an absolute SQLite path", async () => {
    const database = tempDatabase("start.db");
    const { code, out, err } = await cli(["start", "--port", "4000"], database.env);
    expect(code).toBe(0);
    expect(err).toBe("");
    expect(existsSync(database.path)).toBe(true);
    expect(out).toContain("http://localhost:4000");
    const calls = vi.mocked(runNext).mock.calls;
    expect(calls.map((call) => call[1])).toEqual([["build"]]);
    expect(calls[0]![2]).toMatchObject({ NODE_ENV: "production", DATABASE_URL: `file:${database.path}` });
    const served = vi.mocked(runWebServer).mock.calls;
    expect(served.map((call) => [call[1], call[2]])).toEqual([["start", { port: 4000, hostname: undefined }]]);
    expect(served[0]![3]).toMatchObject({ PORT: "4000", DATABASE_URL: `file:${database.path}` });
  });

  it("dev takes the port from PORT and passes --hostname on, without building", async () => {
    const database = tempDatabase("dev.db");
    const { code, out } = await cli(["dev", "-H", "0.0.0.0"], { ...database.env, PORT: "4100" });
    expect(code).toBe(0);
    expect(out).toContain("http://0.0.0.0:4100");
    expect(vi.mocked(runNext)).not.toHaveBeenCalled();
    expect(vi.mocked(runWebServer).mock.calls.map((call) => [call[1], call[2]])).toEqual([["dev", { port: 4100, hostname: "0.0.0.0" }]]);
  });

  it("a failed build stops start with the build's exit code", async () => {
    vi.mocked(runNext).mockResolvedValueOnce(3);
    const { code, err } = await cli(["start"], tempDatabase("buildfail.db").env);
    expect(code).toBe(3);
    expect(err).toContain("build failed");
    expect(vi.mocked(runNext).mock.calls).toHaveLength(1);
    expect(runWebServer).not.toHaveBeenCalled();
  });
});

describe("dualstate configuration and unexpected errors", () => {
  it.each(["mysql://localhost/db", "file:", "./data/x.db"])("an invalid DATABASE_URL (%s) exits 1 naming DATABASE_URL, without a stack trace", async (url) => {
    const { code, out, err } = await cli(["db", "migrate"], { DATABASE_URL: url });
    expect(code).toBe(1);
    expect(err).toContain("DATABASE_URL");
    expect(err).not.toContain("    at ");
    expect(out).toBe("");
  });

  it("an invalid PORT in the environment fails `start` with exit 1 naming PORT, before anything runs", async () => {
    const database = tempDatabase("badport.db");
    const { code, err } = await cli(["start"], { ...database.env, PORT: "http" });
    expect(code).toBe(1);
    expect(err).toContain("PORT");
    expect(err).not.toContain("    at ");
    expect(existsSync(database.path)).toBe(false);
    expect(runNext).not.toHaveBeenCalled();
    expect(runWebServer).not.toHaveBeenCalled();
  });

  it("an unexpected failure prints a message without a stack trace; DUALSTATE_DEBUG=1 adds it", async () => {
    const blocker = join(folder, "a-file");
    writeFileSync(blocker, "not a directory");
    const env = { DATABASE_URL: `file:${join(blocker, "x.db")}` };

    const quiet = await cli(["db", "migrate"], env);
    expect(quiet.code).toBe(1);
    expect(quiet.err).toMatch(/^dualstate: /);
    expect(quiet.err).not.toContain("    at ");

    const debug = await cli(["db", "migrate"], { ...env, DUALSTATE_DEBUG: "1" });
    expect(debug.code).toBe(1);
    expect(debug.err).toContain("    at ");
  });
});

describe("parseEnv (server/env.ts)", () => {
  it("defaults DATABASE_URL to file:./data/dualstate.db and PORT to 3000", () => {
    expect(parseEnv({})).toEqual({ DATABASE_URL: "file:./data/dualstate.db", PORT: 3000, ...WORKER_DEFAULTS });
  });

  it("the first admin's email follows the sign-in's rule: the default passes it, admin@localhost is refused by name", () => {
    expect(accountEmailProblem(parseEnv({}).DUALSTATE_ADMIN_EMAIL)).toBeNull();
    expect(parseEnv({ DUALSTATE_ADMIN_EMAIL: "" }).DUALSTATE_ADMIN_EMAIL).toBe("admin@dualstate.localhost");
    expect(parseEnv({ DUALSTATE_ADMIN_EMAIL: " Ops@Example.com" }).DUALSTATE_ADMIN_EMAIL).toBe("ops@example.com");
    expect(() => parseEnv({ DUALSTATE_ADMIN_EMAIL: "admin@localhost" })).toThrow(/DUALSTATE_ADMIN_EMAIL: needs a dot in its domain/);
    expect(() => parseEnv({ DUALSTATE_ADMIN_EMAIL: "not-an-email" })).toThrow(/DUALSTATE_ADMIN_EMAIL: must be an email address/);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "", OPENAI_BASE_URL: "", OPENAI_API_KEY: "", OPENAI_MODEL: "" })).toEqual({
      DATABASE_URL: "file:./data/dualstate.db",
      PORT: 3000,
      ...WORKER_DEFAULTS,
    });
  });

  it("reads valid values and ignores unrelated variables", () => {
    expect(
      parseEnv({
        DATABASE_URL: "postgresql://user:pw@localhost:5432/dualstate",
        PORT: "8080",
        OPENAI_BASE_URL: "http://localhost:11434/v1",
        OPENAI_API_KEY: "sk-test",
        OPENAI_MODEL: "qwen2.5-coder:7b",
        HOME: "/root",
      }),
    ).toEqual({
      DATABASE_URL: "postgresql://user:pw@localhost:5432/dualstate",
      PORT: 8080,
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      OPENAI_API_KEY: "sk-test",
      OPENAI_MODEL: "qwen2.5-coder:7b",
      ...WORKER_DEFAULTS,
    });
  });

  it("reads DUALSTATE_TRUSTED_PROXIES as addresses and CIDR ranges (commas or spaces)", () => {
    expect(parseEnv({ DUALSTATE_TRUSTED_PROXIES: "10.0.0.0/8, ::1 192.168.1.7" }).DUALSTATE_TRUSTED_PROXIES).toEqual([
      { address: "10.0.0.0", prefix: 8, family: "ipv4" },
      { address: "::1", prefix: 128, family: "ipv6" },
      { address: "192.168.1.7", prefix: 32, family: "ipv4" },
    ]);
    expect(parseEnv({}).DUALSTATE_TRUSTED_PROXIES).toBeUndefined();
  });

  it("rejects a DUALSTATE_TRUSTED_PROXIES entry that is not an address or range, naming the variable and the entry", () => {
    expect(() => parseEnv({ DUALSTATE_TRUSTED_PROXIES: "10.0.0.1, proxy.internal, 10.0.0.0/40" })).toThrow(
      /DUALSTATE_TRUSTED_PROXIES: entry 2 \("proxy.internal"\) is not an IP address or CIDR range[\s\S]*DUALSTATE_TRUSTED_PROXIES: entry 3 \("10.0.0.0\/40"\) has a prefix length that is not between 0 and 32/,
    );
  });

  it.each([
    ["DUALSTATE_WORKER_CONCURRENCY", "0"],
    ["DUALSTATE_WORKER_CONCURRENCY", "two"],
    ["DUALSTATE_LEASE_SECONDS", "0.5"],
    ["DUALSTATE_ESCALATION_TIMEOUT_HOURS", "-1"],
    ["DUALSTATE_SQLITE_SYNCHRONOUS", "OFF"],
    ["DUALSTATE_EMBEDDED_WORKER", "yes"],
    ["DUALSTATE_DRAIN_SECONDS", "-1"],
    ["DUALSTATE_DRAIN_SECONDS", "soon"],
    ["DUALSTATE_CASSETTE_DIR", "cassettes"],
    ["DUALSTATE_CASSETTE_DIR", "/no/such/directory"],
    ["DUALSTATE_CASSETTE_DIR", "/etc/passwd"],
  ])("rejects %s=%s naming it", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(name));
  });

  it("accepts an existing absolute DUALSTATE_CASSETTE_DIR and a drain time", () => {
    expect(parseEnv({ DUALSTATE_CASSETTE_DIR: "/tmp", DUALSTATE_DRAIN_SECONDS: "5" })).toMatchObject({ DUALSTATE_CASSETTE_DIR: "/tmp", DUALSTATE_DRAIN_SECONDS: 5 });
  });

  it.each(["abc", "0", "65536", "99999", "3.5", "-1"])("rejects PORT=%s naming PORT", (port) => {
    expect(() => parseEnv({ PORT: port })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: port })).toThrow(/PORT/);
  });

  it.each(["not a url", "/v1", "localhost:11434/v1", "ftp://example.com"])("rejects OPENAI_BASE_URL=%s naming OPENAI_BASE_URL", (url) => {
    expect(() => parseEnv({ OPENAI_BASE_URL: url })).toThrow(/OPENAI_BASE_URL/);
  });

  it("names every invalid variable at once", () => {
    let error: unknown;
    try {
      parseEnv({ PORT: "x", OPENAI_BASE_URL: "nope", DATABASE_URL: "mysql://db" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    expect(message).toContain("PORT");
    expect(message).toContain("OPENAI_BASE_URL");
    expect(message).toContain("DATABASE_URL");
    expect((error as EnvError).code).toBe("INVALID_ENV");
  });
});
