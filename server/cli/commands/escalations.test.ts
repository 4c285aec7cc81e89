import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../env";
import { createDb, type Db } from "../../persistence/db";
import type { EscalationListItem } from "../../services/escalations/list-escalations";
import { main } from "../main";
import { workerCommand } from "./worker";

const folder = mkdtempSync(join(tmpdir(), "dualstate-escalations-cli-"));
const env: Record<string, string> = { DATABASE_URL: `file:${join(folder, "x.db")}` };
const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("dualstate escalations list|show|approve|reject", () => {
  let db: Db;
  const stop = new AbortController();
  let worker: Promise<number>;

  async function runStatus(runId: string, statuses: string[]): Promise<string> {
    for (let i = 0; i < 600; i++) {
      const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
      if (statuses.includes(run.status)) return run.status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`run ${runId} never reached ${statuses.join("/")}`);
  }

  /** The bundled escalating example, queued and executed until its fatal verdict suspends it. */
  async function escalatedRun(): Promise<{ runId: string; escalationId: string }> {
    const queued = await cli("run", example("sandbox-escalation.yaml"), "--generator", "replay", "--cassette", example("sandbox-escalation.cassette.json"), "--no-delay", "--detach");
    expect(queued.code, queued.err).toBe(0);
    const runId = queued.out.trim();
    await runStatus(runId, ["suspended"]);
    const escalation = await db.escalation.findFirstOrThrow({ where: { runId, status: "pending" } });
    return { runId, escalationId: escalation.id };
  }

  beforeAll(async () => {
    expect((await cli("db", "migrate")).code).toBe(0);
    db = createDb(env.DATABASE_URL as string);
    for (const [email, role] of [["ada@example.test", "reviewer"], ["vic@example.test", "viewer"]] as const) {
      await db.user.create({ data: { id: `u-${role}`, name: email, email, role } });
    }
    worker = workerCommand(["--concurrency", "2"], parseEnv(env), { out: () => {}, err: () => {} }, stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await worker;
    await db.$disconnect();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists the pending escalation as a table and as JSON, and shows it with the offending line marked", async () => {
    const { runId, escalationId } = await escalatedRun();
    const table = await cli("escalations", "list");
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^ID\s+STATUS\s+WORKFLOW\/STEP/);
    expect(table.out).toContain(escalationId);
    expect(table.out).toContain("sandbox-escalation/write_script");
    expect(table.out).toMatch(/\d+ d \d+ h left|\d+ h \d+ min left/);
    expect(table.out).toMatch(/pending \d+, approved \d+/);

    const json = JSON.parse((await cli("escalations", "list", "--json", "--sort", "newest")).out) as { items: EscalationListItem[] };
    expect(json.items[0]).toMatchObject({ id: escalationId, runId, status: "pending", stepName: "write_script" });

    const shown = await cli("escalations", "show", escalationId);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain("Security: os.system forbidden (line 5)");
    expect(shown.out).toContain("> 5 |     os.system('du -sh ' + path)");
    expect(shown.out).toContain("  1 | import os");
    expect(shown.out).toContain(`run        ${runId} (suspended)`);
  });

  it("approves as a reviewer: the run resumes and succeeds; a second decision is told who decided first", async () => {
    const { runId, escalationId } = await escalatedRun();
    const approved = await cli("escalations", "approve", escalationId, "--as", "ada@example.test", "--comment", "the shell call is fine here");
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain(`approved escalation ${escalationId} (approve) as ada@example.test`);
    expect(await runStatus(runId, ["succeeded", "failed"])).toBe("succeeded");
    expect(await db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "approved", decidedBy: "ada@example.test", comment: "the shell call is fine here" });
    expect(await db.auditEvent.count({ where: { actorEmail: "ada@example.test" } })).toBeGreaterThanOrEqual(1);

    const again = await cli("escalations", "reject", escalationId, "--as", "ada@example.test");
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/ada@example\.test decided first/);
  });

  it("under a quorum policy, approve is a vote: the second reviewer's approval decides; a second vote is refused", async () => {
    const { runId, escalationId } = await escalatedRun();
    // `dualstate run` has no account to name: its runs are started by "cli".
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).startedBy).toBe("cli");
    await db.user.create({ data: { id: "u-bob", name: "bob", email: "bob@example.test", role: "reviewer" } });
    await db.escalation.update({ where: { id: escalationId }, data: { routedAt: new Date(), policy: { quorum: { approvals: 2, excludeRunStarter: true, rejections: 1 } } } });

    const first = await cli("escalations", "approve", escalationId, "--as", "ada@example.test");
    expect(first.code, first.err).toBe(0);
    expect(first.out).toBe(`voted on escalation ${escalationId} (approve) as ada@example.test; it stays pending: 1 of 2 approvals (ada@example.test)`);
    const twice = await cli("escalations", "reject", escalationId, "--as", "ada@example.test");
    expect(twice.code).toBe(1);
    expect(twice.err).toContain("you already voted (approved); each reviewer votes once");
    expect(await db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "pending", approvalCount: 1 });

    const second = await cli("escalations", "approve", escalationId, "--as", "bob@example.test");
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain(`approved escalation ${escalationId} (approve) as bob@example.test; run ${runId} resumes when a worker picks it up (2 of 2 approvals (ada@example.test, bob@example.test))`);
    expect(await runStatus(runId, ["succeeded", "failed"])).toBe("succeeded");
  });

  it("reject --feedback sends the step back: the next attempt carries the feedback and passes", async () => {
    const { runId, escalationId } = await escalatedRun();
    const rejected = await cli("escalations", "reject", escalationId, "--as", "ada@example.test", "--feedback", "Do not shell out; read sizes from stdin");
    expect(rejected.code, rejected.err).toBe(0);
    expect(await runStatus(runId, ["succeeded", "failed"])).toBe("succeeded");
    expect(await db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "rejected", decision: "reject_with_feedback" });
    expect(await db.artifact.count({ where: { runId } })).toBe(2);
  });

  it("reject with a reason fails the run; --edit approves an edited artifact checked by the guards", async () => {
    const first = await escalatedRun();
    expect((await cli("escalations", "reject", first.escalationId, "--as", "ada@example.test", "--comment", "never")).code).toBe(0);
    expect(await runStatus(first.runId, ["succeeded", "failed"])).toBe("failed");

    const second = await escalatedRun();
    const edit = join(folder, "edit.py");
    writeFileSync(edit, "import sys\n\nprint(sum(int(line) for line in sys.stdin if line.strip()))\n");
    const approved = await cli("escalations", "approve", second.escalationId, "--as", "ada@example.test", "--edit", edit);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toContain("(edit and approve)");
    expect(await runStatus(second.runId, ["succeeded", "failed"])).toBe("succeeded");
  });

  it("refuses viewers, unknown users, a stale hash and bad command lines with clear messages", async () => {
    const { escalationId } = await escalatedRun();
    const viewer = await cli("escalations", "approve", escalationId, "--as", "vic@example.test");
    expect(viewer.code).toBe(2);
    expect(viewer.err).toContain("vic@example.test is a viewer; only reviewers and admins decide escalations");
    const unknown = await cli("escalations", "approve", escalationId, "--as", "nobody@example.test");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no user has this email");
    const missingAs = await cli("escalations", "approve", escalationId);
    expect(missingAs.err).toContain("--as EMAIL is required");
    const stale = await cli("escalations", "approve", escalationId, "--as", "ada@example.test", "--hash", "0".repeat(64));
    expect(stale.code).toBe(1);
    expect(stale.err).toContain("is not the pending artifact");
    expect((await db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).status).toBe("pending");

    const both = await cli("escalations", "reject", escalationId, "--as", "ada@example.test", "--comment", "a", "--feedback", "b");
    expect(both.code).toBe(2);
    expect(both.err).toContain("not both");
    expect((await cli("escalations", "show")).err).toContain("expected <escalation id>");
    expect((await cli("escalations", "frobnicate")).err).toContain('unknown subcommand "frobnicate" (list, show, approve, reject)');
    expect((await cli("escalations", "list", "--status", "done")).err).toContain("--status must be one of pending, approved, rejected, expired, cancelled, all");
    const missing = await cli("escalations", "show", "no-such-id");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('Escalation "no-such-id" was not found');
    expect(missing.err).not.toMatch(/\n\s+at /);
  });
});
