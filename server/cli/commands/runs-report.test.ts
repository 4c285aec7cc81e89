import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../env";
import { createDb, type Db } from "../../persistence/db";
import { main } from "../main";
import { reportCommand } from "./runs/report";

const folder = mkdtempSync(join(tmpdir(), "dualstate-runs-report-cli-"));
const env: Record<string, string> = { DATABASE_URL: `file:${join(folder, "x.db")}` };
const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));
const SCHEMA = { type: "object", properties: { status: { type: "string", enum: ["deployed", "failed"] } }, required: ["status"] };

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("dualstate runs report", () => {
  let db: Db;
  let runId: string;

  /** A tool call of the queued run, waiting as the engine leaves one (the run itself is never executed here). */
  async function waitingCall(kind: "external" | "person", resultSchema: object | null = SCHEMA): Promise<string> {
    const id = randomUUID();
    await db.toolWait.create({
      data: { id, runId, callKey: `write_script/attempt-1/${id}`, stepName: "write_script", attempt: 1, tool: kind === "person" ? "ask_owner" : "deploy", kind, input: {}, ...(resultSchema ? { resultSchema } : {}), deadlineAt: new Date(Date.now() + 3_600_000) },
    });
    await db.run.update({ where: { id: runId }, data: { status: "suspended", waitingToolCount: { increment: 1 } } });
    return id;
  }

  beforeAll(async () => {
    // Queued through the real command, never picked up: no worker runs in this file.
    const queued = await cli("run", example("sandbox-escalation.yaml"), "--generator", "replay", "--cassette", example("sandbox-escalation.cassette.json"), "--detach");
    expect(queued.code, queued.err).toBe(0);
    runId = queued.out.trim();
    db = createDb(env.DATABASE_URL as string);
    await db.inboxMessage.updateMany({ where: { runId }, data: { status: "done", doneAt: new Date() } });
    for (const [email, role] of [["ada@example.test", "reviewer"], ["vic@example.test", "viewer"]] as const) {
      await db.user.create({ data: { id: `u-${role}`, name: email, email, role } });
    }
  });
  afterAll(async () => {
    await db.$disconnect();
    rmSync(folder, { recursive: true, force: true });
  });

  it.each([
    [["runs", "report", "r1"], "dualstate runs report: expected <run id> <call id>"],
    [["runs", "report", "r1", "c1"], "dualstate runs report: give the result with exactly one of --result JSON or --result-file FILE (- reads standard input)"],
    [["runs", "report", "r1", "c1", "--result", "{}", "--result-file", "x.json"], "exactly one of --result JSON or --result-file FILE"],
    [["runs", "report", "r1", "c1", "--result", "{status: deployed}"], "dualstate runs report: --result is not valid JSON ("],
    [["runs", "report", "r1", "c1", "--result", "  "], "dualstate runs report: --result is empty; give the result as one JSON object"],
    [["runs", "report", "r1", "c1", "--result-file", "/no/such/result.json"], "dualstate runs report: --result-file /no/such/result.json: no such file"],
    [["runs", "report", "r1", "c1", "--result-file", tmpdir()], `dualstate runs report: --result-file ${tmpdir()}: is a directory`],
    [["runs", "report", "r1", "c1", "--result-file", "/dev/zero"], "dualstate runs report: --result-file /dev/zero is larger than 1024 KiB"],
    [["runs", "report", "r1", "c1", "extra", "--result", "{}"], 'dualstate runs report: unexpected argument "extra"'],
  ])("%j is a usage error (exit 2) naming the problem", async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(message);
    expect(err).toContain("runs report <runId> <callId>");
  });

  it("refuses an unknown call, a result the schema refuses and a person's question with exit 1 and one line", async () => {
    const callId = await waitingCall("external");
    const unknown = await cli("runs", "report", runId, "no-such-call", "--result", "{}");
    expect(unknown).toMatchObject({ code: 1, out: "", err: `dualstate runs report: Run "${runId}" has no tool call "no-such-call"` });
    const wrong = await cli("runs", "report", runId, callId, "--result", '{"status":"done"}');
    expect(wrong).toMatchObject({ code: 1, err: 'dualstate runs report: result.status: must be one of "deployed", "failed"' });
    const array = await cli("runs", "report", runId, callId, "--result", "[1]");
    expect(array).toMatchObject({ code: 1, err: "dualstate runs report: result: must be one JSON object, not an array" });
    const question = await waitingCall("person");
    const person = await cli("runs", "report", runId, question, "--result", '{"status":"deployed"}');
    expect(person.code).toBe(1);
    expect(person.err).toContain("asks a person a question: answer it in the review queue");
    const viewer = await cli("runs", "report", runId, callId, "--result", '{"status":"deployed"}', "--as", "vic@example.test");
    expect(viewer.code).toBe(2);
    expect(viewer.err).toContain("--as vic@example.test: vic@example.test is a viewer; only reviewers and admins report tool results");
    expect((await db.toolWait.findUniqueOrThrow({ where: { id: callId } })).status).toBe("waiting");
  });

  it("reports from a file as the --as reviewer; a repeat from standard input is acknowledged without effect (exit 0, applied: false)", async () => {
    const callId = await waitingCall("external");
    // Another call of the run keeps waiting, whichever tests ran before.
    await waitingCall("external");
    const file = join(folder, "result.json");
    writeFileSync(file, JSON.stringify({ status: "deployed" }, null, 2));
    const applied = await cli("runs", "report", runId, callId, "--result-file", file, "--as", "ada@example.test");
    expect(applied.err).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.out).toBe(`Reported tool call ${callId} of run ${runId} as ada@example.test; the run resumes once its other waiting calls are reported.`);
    expect(await db.toolWait.findUniqueOrThrow({ where: { id: callId } })).toMatchObject({ status: "reported", reportedBy: "ada@example.test", result: { status: "deployed" } });

    const out: string[] = [];
    const code = await reportCommand([runId, callId, "--result-file", "-", "--json"], parseEnv(env), { out: (text) => void out.push(text), err: () => {} }, Readable.from([Buffer.from('{"status":'), Buffer.from('"failed"}')]));
    expect(code).toBe(0);
    expect(JSON.parse(out.join(""))).toMatchObject({ applied: false, status: "reported", reportedBy: "ada@example.test", callId, runId });
    expect((await db.toolWait.findUniqueOrThrow({ where: { id: callId } })).result).toEqual({ status: "deployed" });
  });

  it("without --as, the operator is recorded as cli:<login name>", async () => {
    const callId = await waitingCall("external", null);
    const applied = await cli("runs", "report", runId, callId, "--result", '{"anything":["goes"]}', "--json");
    expect(applied.code, applied.err).toBe(0);
    expect(JSON.parse(applied.out)).toMatchObject({ applied: true, reportedBy: expect.stringMatching(/^cli:.+/) });
  });
});
