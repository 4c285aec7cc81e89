import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../env";
import { createDb } from "../../persistence/db";
import type { RunDescription, RunHead } from "../../services/runs/describe-run";
import { main } from "../main";
import { workerCommand } from "./worker";

const folder = mkdtempSync(join(tmpdir(), "dualstate-worker-cli-"));
const env: Record<string, string> = { DATABASE_URL: `file:${join(folder, "x.db")}` };
const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("dualstate run --detach, worker, runs list|show", () => {
  it("queues a run and prints its id at once; a standalone worker executes it; runs show reports head, result and ledger", async () => {
    const queued = await cli("run", example("tdd-lru-cache.yaml"), "--generator", "replay", "--cassette", example("tdd-lru-cache.cassette.json"), "--no-delay", "--detach");
    expect(queued.code).toBe(0);
    const runId = queued.out.trim();
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);

    const before = JSON.parse((await cli("runs", "show", runId, "--json")).out) as RunDescription;
    expect(before.head).toMatchObject({ id: runId, status: "queued", epoch: 0, leaseOwner: null, workflow: "tdd-lru-cache", version: 1 });
    expect(before.report.status).toBe("running");

    const stop = new AbortController();
    const output: string[] = [];
    const worker = workerCommand(["--concurrency", "1"], parseEnv(env), { out: (text) => void output.push(text), err: (text) => void output.push(text) }, stop.signal);
    const db = createDb(env.DATABASE_URL as string);
    try {
      for (let i = 0; i < 400; i++) {
        const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
        if (run.status === "succeeded") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await db.$disconnect();
    }
    stop.abort();
    expect(await worker).toBe(0);
    expect(output.join("\n")).toMatch(/Worker .+ executing runs \(concurrency 1\)[\s\S]*draining[\s\S]*stopped/);

    const shown = JSON.parse((await cli("runs", "show", runId, "--json")).out) as RunDescription;
    expect(shown.head).toMatchObject({ status: "succeeded", epoch: 1, leaseOwner: null, activeTurnId: null });
    expect(shown.report).toMatchObject({ status: "success", finalState: "done" });
    expect(shown.ledger.byType).toMatchObject({ "run.started": 1, "run.finished": 1, "guard.completed": 3, "generator.completed": 3 });
    expect(shown.ledger.entries).toBe(Object.values(shown.ledger.byType).reduce((a, b) => a + b, 0));

    const text = await cli("runs", "show", runId);
    expect(text.out).toContain(`${runId}  succeeded  epoch 1`);
    expect(text.out).toMatch(/ledger: \d+ entries, 0 model calls/);
    expect(text.out).toContain("implement attempt 1: failed");

    const list = JSON.parse((await cli("runs", "list", "--json")).out) as RunHead[];
    expect(list.map((run) => run.id)).toEqual([runId]);
  }, 60_000);

  it("names bad input: unknown run, bad options", async () => {
    expect(await cli("runs", "show", "nope")).toMatchObject({ code: 1, err: 'dualstate runs show: Run "nope" was not found' });
    expect((await cli("runs", "list", "--limit", "0")).code).toBe(2);
    expect((await cli("runs", "frob")).err).toContain('dualstate runs: unknown subcommand "frob" (list, show, report)');
    expect((await cli("worker", "--concurrency", "zero")).err).toContain('dualstate worker: --concurrency must be a whole number from 1 to 64, got "zero"');
  });
});
