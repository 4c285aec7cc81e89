import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { createDoorbell } from "@/server/durable/doorbell";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { until } from "@/server/testing/until";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";

const ada: Actor = { id: "u-ada", email: "ada@example.test", role: "reviewer", via: "session" };
const vic: Actor = { id: "u-vic", email: "vic@example.test", role: "viewer", via: "session" };
const SHELL_SCRIPT = "import os\n\n\ndef disk_usage(path):\n    os.system('du -sh ' + path)\n\n\ndisk_usage('.')\n";

describe.each(TEST_PROVIDERS)("datasets router on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  const as = (actor: Actor | null) => createCaller(createTRPCContext({ db: fixture.database.db, actor }));

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    pairDurableStore(fixture.database.db, fixture.store);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {}, concurrency: 2, pollMs: 100, log: (line) => console.error(line) });
    worker.start();
    for (const actor of [ada, vic]) await fixture.database.db.user.create({ data: { id: actor.id, name: actor.email, email: actor.email, role: actor.role } });
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await fixture.dispose();
  });

  const runEnded = (runId: string) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed", "escalated", "cancelled", "suspended"].includes(run.status) ? run : undefined;
    }, 30_000);

  it("lets viewers read but not change, and nobody anonymous anything", async () => {
    await expect(as(null).datasets.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(as(vic).datasets.upload({ name: "refused", fileName: "a.jsonl", text: '{"specification":"x"}' })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(as(vic).datasets.addFromRun({ runId: "r", datasetName: "refused" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await as(vic).datasets.list()).toEqual([]);
  });

  it("uploads: a file with mistakes stores nothing and names line and field; the fixed file becomes version 1", async () => {
    const broken = '{"key":"leap","specification":"def leap(y): whether y is a leap year"}\n{"key":"sum","specificaton":"def total(xs)"}\n';
    const refused = await as(ada).datasets.upload({ name: "docstrings", fileName: "cases.jsonl", text: broken });
    expect(refused).toEqual({ ok: false, errors: [
      { line: 2, field: "specificaton", message: "is not a case field (expected key, specification, variables or checks)" },
      { line: 2, field: "specification", message: "is required" },
    ] });
    expect(await as(vic).datasets.list()).toEqual([]);

    const uploaded = await as(ada).datasets.upload({ name: "docstrings", description: "Docstring tasks", fileName: "cases.jsonl", text: broken.replace("specificaton", "specification") });
    expect(uploaded).toMatchObject({ ok: true, version: 1, cases: 2 });
    const [listed] = await as(vic).datasets.list();
    expect(listed).toMatchObject({ name: "docstrings", description: "Docstring tasks", latest: { version: 1, cases: 2 } });
    const detail = await as(vic).datasets.get({ id: listed!.id });
    expect(detail.version).toMatchObject({ version: 1, isLatest: true, source: "upload", createdBy: ada.email });
    expect(detail.version!.items.map((c) => [c.position, c.key, c.specification])).toEqual([
      [0, "leap", "def leap(y): whether y is a leap year"],
      [1, "sum", "def total(xs)"],
    ]);
  });

  it("edits by hand: each change is a new version, older versions stay, stale edits are refused", async () => {
    const { id } = (await as(ada).datasets.list({ search: "DocStr" }))[0]!;
    const added = await as(ada).datasets.changeCase({ datasetId: id, baseVersion: 1, change: { kind: "add", case: { key: "mean", specification: "def mean(xs)", variables: { style: "google" }, checks: { rubric: "Mentions an empty list" } } } });
    expect(added.version).toBe(2);
    const edited = await as(ada).datasets.changeCase({ datasetId: id, baseVersion: 2, change: { kind: "update", key: "sum", case: { key: "total", specification: "def total(xs): the sum" } } });
    const removed = await as(ada).datasets.changeCase({ datasetId: id, baseVersion: edited.version, change: { kind: "remove", key: "leap" } });
    expect(removed.version).toBe(4);

    const latest = await as(vic).datasets.get({ id });
    expect(latest.versions.map((v) => [v.version, v.source, v.cases])).toEqual([[4, "manual", 2], [3, "manual", 3], [2, "manual", 3], [1, "upload", 2]]);
    expect(latest.version!.items.map((c) => [c.key, c.specification, c.variables, c.checks])).toEqual([
      ["total", "def total(xs): the sum", null, null],
      ["mean", "def mean(xs)", { style: "google" }, { rubric: "Mentions an empty list" }],
    ]);
    const first = await as(vic).datasets.get({ id, version: 1 });
    expect(first.version!.isLatest).toBe(false);
    expect(first.version!.items.map((c) => c.key)).toEqual(["leap", "sum"]);

    await expect(as(ada).datasets.changeCase({ datasetId: id, baseVersion: 2, change: { kind: "remove", key: "mean" } })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("changed meanwhile") });
    await expect(as(ada).datasets.changeCase({ datasetId: id, baseVersion: 4, change: { kind: "add", case: { key: "mean", specification: "again" } } })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(as(ada).datasets.changeCase({ datasetId: id, baseVersion: 4, change: { kind: "add", case: { key: "bad key", specification: "x" } } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("cases[2].key") });
    await expect(as(ada).datasets.changeCase({ datasetId: id, baseVersion: 4, change: { kind: "remove", key: "nope" } })).rejects.toMatchObject({ code: "BAD_REQUEST", message: 'key: the version has no case "nope"' });
    await expect(as(vic).datasets.get({ id, version: 99 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("adds a finished run's specification and variables as a case, with a fresh key each time", async () => {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["tdd-lru-cache"]!, specification: "An LRU cache of 3 entries", contextValues: { should_restart: false }, generatorOverride: fixture.replay("tdd-lru-cache") });
    await expect(as(ada).datasets.addFromRun({ runId: "no-such-run", datasetName: "from runs" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const run = await runEnded(runId);
    expect(run.status, JSON.stringify(run.finalResult)).toBe("succeeded");
    const added = await as(ada).datasets.addFromRun({ runId, datasetName: "from runs" });
    expect(added).toMatchObject({ version: 1, key: `run-${runId.slice(0, 8)}` });
    const again = await as(ada).datasets.addFromRun({ runId, datasetName: "from runs" });
    expect(again).toMatchObject({ version: 2, key: `run-${runId.slice(0, 8)}-2` });
    const detail = await as(vic).datasets.get({ id: added.datasetId });
    expect(detail.version!.items[0]).toMatchObject({ specification: "An LRU cache of 3 entries", variables: { should_restart: false }, sourceRunId: runId });
    expect(detail.version!.source).toBe("run");

  });

  it("adds a decided escalation with the reviewer's comment as the rubric; a pending one (and its waiting run) is refused", async () => {
    const cassette = { ...fixture.replay("sandbox-escalation").cassette, steps: { write_script: [SHELL_SCRIPT] } };
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "disk usage", generatorOverride: { kind: "replay", cassette } });
    const escalation = await until(() => fixture.database.db.escalation.findFirst({ where: { runId, status: "pending" }, include: { artifact: true } }).then((found) => found ?? undefined), 30_000);
    await expect(as(ada).datasets.addFromRun({ runId, datasetName: "judged" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "runId: the run is suspended; only a finished run can become a case" });
    await expect(as(ada).datasets.addFromEscalation({ escalationId: escalation.id, datasetName: "judged" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("only an approved or rejected escalation") });

    await as(ada).escalation.decide({ escalationId: escalation.id, contentHash: escalation.artifact.contentHash, decision: "reject", comment: "Never shell out; use shutil.disk_usage" });
    const added = await as(ada).datasets.addFromEscalation({ escalationId: escalation.id, datasetName: "judged" });
    const detail = await as(vic).datasets.get({ id: added.datasetId });
    expect(detail.version!.items[0]).toMatchObject({ key: `escalation-${escalation.id.slice(0, 8)}`, specification: "disk usage", checks: { rubric: "Never shell out; use shutil.disk_usage" }, sourceRunId: runId, sourceEscalationId: escalation.id });
    expect(detail.version!.source).toBe("escalation");
    const withRubric = await as(ada).datasets.addFromEscalation({ escalationId: escalation.id, datasetName: "judged", rubric: "Reports sizes without a subprocess" });
    const second = await as(vic).datasets.get({ id: added.datasetId, version: withRubric.version });
    expect(second.version!.items[1]!.checks).toEqual({ rubric: "Reports sizes without a subprocess" });
  });

  it("gives concurrent appends to one dataset one version each, losing none", async () => {
    const runs = await fixture.database.db.run.findMany({ where: { status: "succeeded" }, select: { id: true } });
    const results = await Promise.all(Array.from({ length: 6 }, () => as(ada).datasets.addFromRun({ runId: runs[0]!.id, datasetName: "concurrent" })));
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    const detail = await as(vic).datasets.get({ id: results[0]!.datasetId });
    expect(detail.version!.items).toHaveLength(6);
    expect(new Set(detail.version!.items.map((c) => c.key)).size).toBe(6);
  });
});
