import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCaller } from "@/server/api/testing/test-caller";
import type { Actor } from "@/server/api/trpc";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { getInsights } from "./get-insights";
import { INSIGHTS_LIMITS } from "./insights-limits";

const NOW = new Date("2026-11-26T09:30:00.000Z");
const at = (iso: string) => new Date(iso);
const later = (iso: string, ms: number) => new Date(at(iso).getTime() + ms);
const viewer: Actor = { id: "u-vic", email: "vic@example.test", role: "viewer", via: "session" };

interface RunSeed {
  id: string;
  version: "alpha1" | "alpha2" | "beta1" | null;
  status: "succeeded" | "failed" | "suspended" | "cancelled";
  createdAt: string;
  costUsd?: number;
  promptTokens?: number;
  completionTokens?: number;
}

// Costs are sums of powers of two, so every total is exact in floating point.
const RUNS: RunSeed[] = [
  { id: "a1", version: "alpha1", status: "succeeded", createdAt: "2026-11-26T09:05:00.000Z", costUsd: 0.5, promptTokens: 1000, completionTokens: 200 },
  { id: "a2", version: "alpha2", status: "failed", createdAt: "2026-11-26T08:10:00.000Z", costUsd: 0.25, promptTokens: 400, completionTokens: 100 },
  { id: "a3", version: "alpha1", status: "suspended", createdAt: "2026-11-26T08:50:00.000Z", costUsd: 0.125, promptTokens: 100, completionTokens: 10 },
  { id: "b1", version: "beta1", status: "succeeded", createdAt: "2026-11-25T12:00:00.000Z", costUsd: 2, promptTokens: 5000, completionTokens: 1000 },
  { id: "b2", version: "beta1", status: "cancelled", createdAt: "2026-11-25T12:30:00.000Z" },
  { id: "loose", version: null, status: "failed", createdAt: "2026-11-25T10:00:00.000Z", costUsd: 0.0625 },
  // Just before the 24-hour window (which starts at 10:00 the day before), inside the 7-day one.
  { id: "edge", version: "beta1", status: "succeeded", createdAt: "2026-11-25T09:59:59.999Z", costUsd: 1 },
  { id: "old", version: "beta1", status: "failed", createdAt: "2026-11-24T09:00:00.000Z", costUsd: 8 },
  // Outside both windows.
  { id: "ancient", version: "alpha1", status: "failed", createdAt: "2026-10-01T09:00:00.000Z", costUsd: 64 },
];

async function seed(database: TestDatabase) {
  const { db } = database;
  await db.workflow.create({ data: { id: "wf-alpha", name: "alpha", versions: { create: [{ id: "alpha1", version: 1, definition: {} }, { id: "alpha2", version: 2, definition: {} }] } } });
  await db.workflow.create({ data: { id: "wf-beta", name: "beta", versions: { create: [{ id: "beta1", version: 1, definition: {} }] } } });
  for (const run of RUNS) {
    const { version, createdAt, ...rest } = run;
    await db.run.create({ data: { ...rest, workflowVersionId: version, specification: `spec ${run.id}`, workflowState: {}, createdAt: at(createdAt) } });
  }
  let artifactCount = 0;
  const artifact = async (runId: string, guardId: string, passed: boolean, fatal: boolean, feedback: string, createdAt: string) => {
    const id = `art-${++artifactCount}`;
    await db.artifact.create({ data: { id, runId, stepName: "implement", guardId, attempt: artifactCount, content: "x", contentHash: `h${artifactCount}`, passed, fatal, feedback, createdAt: at(createdAt) } });
    return id;
  };
  const escalation = async (runId: string, artifactId: string, kind: "guard" | "budget", status: "pending" | "approved" | "rejected" | "expired", createdAt: string, decidedAfterMs?: number) => {
    await db.escalation.create({
      data: { id: `esc-${runId}-${kind}-${createdAt}`, kind, runId, artifactId, stepName: "implement", guardId: "g", feedback: "f", status, createdAt: at(createdAt), ...(decidedAfterMs === undefined ? {} : { decidedAt: later(createdAt, decidedAfterMs), decidedBy: "rev@example.test" }) },
    });
  };

  await artifact("a2", "g_tests", false, false, "test_small failed at line 3\nassert is_prime(2)", "2026-11-26T08:11:00.000Z");
  const a2last = await artifact("a2", "g_tests", false, false, "test_small failed at line 9\nother details", "2026-11-26T08:12:00.000Z");
  const a3art = await artifact("a3", "g_tests", false, true, "  test_small failed at line 4", "2026-11-26T08:51:00.000Z");
  const b1art = await artifact("b1", "g_syntax", false, false, "SyntaxError: invalid syntax", "2026-11-25T12:01:00.000Z");
  const b1ok = await artifact("b1", "g_syntax", true, false, "fine", "2026-11-25T12:02:00.000Z");
  const b2art = await artifact("b2", "g_review", false, true, "Awaiting a human decision: look at it", "2026-11-25T12:31:00.000Z");
  const oldArt = await artifact("old", "g_syntax", false, false, "SyntaxError: invalid syntax", "2026-11-24T09:01:00.000Z");
  await artifact("ancient", "g_syntax", false, false, "SyntaxError: invalid syntax", "2026-10-01T09:01:00.000Z");

  await escalation("a3", a3art, "guard", "pending", "2026-11-26T08:55:00.000Z");
  await escalation("a2", a2last, "guard", "rejected", "2026-11-26T08:20:00.000Z", 30_000);
  await escalation("b1", b1art, "guard", "approved", "2026-11-25T12:05:00.000Z", 60_000);
  await escalation("b1", b1ok, "budget", "approved", "2026-11-25T12:10:00.000Z", 180_000);
  // Expired: closed by the watchdog, not decided by a person.
  await escalation("b2", b2art, "guard", "expired", "2026-11-25T12:32:00.000Z", 5_000);
  await escalation("old", oldArt, "guard", "rejected", "2026-11-24T09:02:00.000Z", 3_600_000);
}

describe.each(TEST_PROVIDERS)("the Metrics page's figures on %s", (provider) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    await seed(database);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("counts the last 24 hours' runs by status in hourly UTC buckets", async () => {
    const insights = await getInsights(database.db, { range: "24h" }, NOW);
    expect(insights).toMatchObject({ unit: "hour", from: at("2026-11-25T10:00:00.000Z"), to: at("2026-11-26T10:00:00.000Z"), workflow: null });
    expect(insights.runs.total).toBe(6);
    expect(insights.runs.byStatus).toEqual({ queued: 0, dispatched: 0, running: 0, suspended: 1, succeeded: 2, failed: 2, escalated: 0, cancelled: 1 });
    expect(insights.runs.buckets).toHaveLength(24);
    const bucket = (key: string) => insights.runs.buckets.find((entry) => entry.bucket === key);
    expect(bucket("2026-11-26T09")).toMatchObject({ total: 1, byStatus: { succeeded: 1 } });
    expect(bucket("2026-11-26T08")).toMatchObject({ total: 2, byStatus: { failed: 1, suspended: 1 } });
    expect(bucket("2026-11-25T12")).toMatchObject({ total: 2, byStatus: { succeeded: 1, cancelled: 1 } });
    expect(bucket("2026-11-25T10")).toMatchObject({ total: 1, byStatus: { failed: 1 } });
    expect(insights.runs.buckets.filter((entry) => entry.total > 0).map((entry) => entry.bucket)).toEqual(["2026-11-25T10", "2026-11-25T12", "2026-11-26T08", "2026-11-26T09"]);
  });

  it("gives the escalation rate, escalations by kind and status, and time to decision p50/p95 from people's decisions", async () => {
    const insights = await getInsights(database.db, { range: "24h" }, NOW);
    // a2, a3, b1 (twice) and b2 escalated; 4 of 6 runs.
    expect(insights.escalationRate).toBe(4 / 6);
    expect(insights.escalations).toMatchObject({ escalatedRuns: 4, escalations: 5, byKind: { guard: 4, budget: 1 }, byStatus: { pending: 1, approved: 2, rejected: 1, expired: 1, cancelled: 0 } });
    expect(insights.escalations.buckets.find((entry) => entry.bucket === "2026-11-26T08")?.escalatedRuns).toBe(2);
    expect(insights.escalations.buckets.find((entry) => entry.bucket === "2026-11-25T12")?.escalatedRuns).toBe(2);
    // 30 s, 60 s, 180 s (the expired one is not a decision).
    expect(insights.escalations.timeToDecision).toEqual({ sample: 3, truncated: false, p50Ms: 60_000, p95Ms: 180_000 });

    const week = await getInsights(database.db, { range: "7d" }, NOW);
    expect(week.runs.total).toBe(8);
    expect(week.runs.buckets.map((entry) => entry.total)).toEqual([0, 0, 0, 0, 1, 4, 3]);
    expect(week.escalations.timeToDecision).toEqual({ sample: 4, truncated: false, p50Ms: 60_000, p95Ms: 3_600_000 });
    expect(week.escalationRate).toBe(5 / 8);
  });

  it("sums cost and tokens per workflow, most expensive first", async () => {
    const { cost } = await getInsights(database.db, { range: "24h" }, NOW);
    expect(cost).toMatchObject({ runs: 6, costUsd: 2.9375, promptTokens: 6500, completionTokens: 1310, truncated: false });
    expect(cost.workflows).toEqual([
      { workflowId: "wf-beta", name: "beta", runs: 2, costUsd: 2, costPerRunUsd: 1, promptTokens: 5000, completionTokens: 1000 },
      { workflowId: "wf-alpha", name: "alpha", runs: 3, costUsd: 0.875, costPerRunUsd: 0.875 / 3, promptTokens: 1500, completionTokens: 310 },
      { workflowId: null, name: "(no workflow)", runs: 1, costUsd: 0.0625, costPerRunUsd: 0.0625, promptTokens: 0, completionTokens: 0 },
    ]);
    const week = await getInsights(database.db, { range: "7d" }, NOW);
    expect(week.cost.workflows[0]).toMatchObject({ name: "beta", runs: 4, costUsd: 11 });
  });

  it("groups failed guard verdicts into their most frequent reasons, leaving out waits for a person", async () => {
    const { guardFailures } = await getInsights(database.db, { range: "24h" }, NOW);
    expect(guardFailures).toEqual({
      sample: 5,
      truncated: false,
      reasons: [
        { guardId: "g_tests", reason: "test_small failed at line N", count: 3, fatalCount: 1, steps: ["implement"], exampleRunId: "a3" },
        { guardId: "g_syntax", reason: "SyntaxError: invalid syntax", count: 1, fatalCount: 0, steps: ["implement"], exampleRunId: "b1" },
      ],
    });
    const week = await getInsights(database.db, { range: "7d" }, NOW);
    expect(week.guardFailures.reasons.find((reason) => reason.guardId === "g_syntax")?.count).toBe(2);
  });

  it("narrows every figure to one workflow's runs, all its versions", async () => {
    const insights = await getInsights(database.db, { range: "24h", workflowId: "wf-alpha" }, NOW);
    expect(insights.workflow).toEqual({ id: "wf-alpha", name: "alpha" });
    expect(insights.runs).toMatchObject({ total: 3, byStatus: { succeeded: 1, failed: 1, suspended: 1 } });
    expect(insights.escalationRate).toBe(2 / 3);
    expect(insights.escalations.timeToDecision).toMatchObject({ sample: 1, p50Ms: 30_000, p95Ms: 30_000 });
    expect(insights.cost.workflows.map((workflow) => workflow.name)).toEqual(["alpha"]);
    expect(insights.cost.costUsd).toBe(0.875);
    expect(insights.guardFailures.reasons.map((reason) => reason.guardId)).toEqual(["g_tests"]);
  });

  it("has no rate and no percentiles for a window without runs", async () => {
    const insights = await getInsights(database.db, { range: "24h" }, at("2027-06-01T00:00:00.000Z"));
    expect(insights.runs.total).toBe(0);
    expect(insights.escalationRate).toBeNull();
    expect(insights.escalations.timeToDecision).toEqual({ sample: 0, truncated: false, p50Ms: null, p95Ms: null });
    expect(insights.cost).toMatchObject({ runs: 0, costUsd: 0, workflows: [] });
    expect(insights.guardFailures.reasons).toEqual([]);
  });

  it("is readable by viewers through the insights router, refused without a session, and names bad input", async () => {
    const asViewer = createTestCaller(database.db, viewer);
    const figures = await asViewer.insights.get({ range: "30d" });
    expect(figures.unit).toBe("day");
    await expect(createTestCaller(database.db, null).insights.get({ range: "24h" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(asViewer.insights.get({ range: "24h", workflowId: "wf-missing" })).rejects.toMatchObject({ code: "NOT_FOUND", message: 'Workflow "wf-missing" was not found' });
    await expect(asViewer.insights.get({ range: "1y" as "24h" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/"range"[\s\S]*must be one of 24h, 7d, 30d/) });
  });

  it("reads a bounded sample of the newest verdicts and decisions, and says when it was cut", async () => {
    const { db } = database;
    const start = at("2027-01-01T00:00:00.000Z");
    await db.workflow.create({ data: { id: "wf-busy", name: "busy", versions: { create: [{ id: "busy1", version: 1, definition: {} }] } } });
    await db.run.create({ data: { id: "busy-run", workflowVersionId: "busy1", specification: "s", status: "failed", workflowState: {}, createdAt: start } });
    const verdicts = INSIGHTS_LIMITS.failedVerdictSample + 1;
    // The oldest verdict says something else: it is the one left out of the sample.
    await db.artifact.createMany({
      data: Array.from({ length: verdicts }, (_, i) => ({ id: `busy-art-${i}`, runId: "busy-run", stepName: "s", guardId: "g_busy", attempt: i, content: "x", contentHash: `b${i}`, passed: false, fatal: false, feedback: i === 0 ? "the oldest" : `timed out after ${i} ms`, createdAt: new Date(start.getTime() + i) })),
    });
    const decisions = INSIGHTS_LIMITS.decisionSample + 1;
    // Decision i took i + 1 seconds; the oldest (decided first, after 1 s) is left out.
    await db.escalation.createMany({
      data: Array.from({ length: decisions }, (_, i) => ({ id: `busy-esc-${i}`, runId: "busy-run", artifactId: "busy-art-0", stepName: "s", guardId: "g_busy", feedback: "f", status: "approved", createdAt: start, decidedAt: new Date(start.getTime() + (i + 1) * 1000) })),
    });
    const insights = await getInsights(db, { range: "24h", workflowId: "wf-busy" }, at("2027-01-01T12:00:00.000Z"));
    expect(insights.guardFailures).toEqual({
      sample: INSIGHTS_LIMITS.failedVerdictSample,
      truncated: true,
      reasons: [{ guardId: "g_busy", reason: "timed out after N ms", count: INSIGHTS_LIMITS.failedVerdictSample, fatalCount: 0, steps: ["s"], exampleRunId: "busy-run" }],
    });
    // Sample: 2 s … 5001 s; nearest rank of 50% of 5000 is the 2500th: 2501 s; of 95%, the 4750th: 4751 s.
    expect(insights.escalations.timeToDecision).toEqual({ sample: INSIGHTS_LIMITS.decisionSample, truncated: true, p50Ms: 2_501_000, p95Ms: 4_751_000 });
    expect(insights.escalations.escalations).toBe(decisions);
  });
});
