import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDoorbell } from "../durable/doorbell";
import { advanceEscalationClock } from "../durable/testing/escalation-clock";
import { TEST_PROVIDERS } from "../persistence/testing/test-database";
import { until } from "../testing/until";
import { RunWorker } from "./run-worker";
import { createDurableFixture, type DurableFixture } from "./testing/durable-fixture";
import { sweep } from "./watchdog";

/** Real runs under each deadline policy: what the run does after the watchdog acted on its escalation. */
describe.each(TEST_PROVIDERS)("runs whose escalation reaches its deadline (%s)", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 8 * 3_600_000, maxRetries: 3, compile: {}, pollMs: 100 });
    worker.start();
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await fixture.dispose();
  });

  /** A run of the bundled sandbox example, suspended on its escalation, routed as the routing pass would. */
  async function escalatedRun(deadline: Record<string, unknown>) {
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions["sandbox-escalation"]!, specification: "disk usage", generatorOverride: fixture.replay("sandbox-escalation") });
    const escalation = await until(() => fixture.database.db.escalation.findFirst({ where: { runId, status: "pending" } }).then((row) => row ?? undefined), 20_000);
    const policy = { group: "security", quorum: { approvals: 1, excludeRunStarter: false, rejections: 1 }, deadline: { hours: 8, handoffGroup: null, handoffHours: null, ...deadline }, backup: null, channels: ["email"], rule: "r" };
    await fixture.database.db.escalation.update({ where: { id: escalation.id }, data: { policy, routedAt: new Date(), routingVersion: 1, reviewGroup: "security" } });
    return { runId, escalationId: escalation.id };
  }
  const ended = (runId: string) =>
    until(async () => {
      const run = await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } });
      return ["succeeded", "failed", "cancelled"].includes(run.status) ? run : undefined;
    }, 20_000);

  it("reject: the run resumes and ends as after a person's rejection, naming the deadline policy", async () => {
    const { runId, escalationId } = await escalatedRun({ action: "reject" });
    await advanceEscalationClock(fixture.database.db, escalationId, 8.1);
    await sweep(fixture.store);
    const run = await ended(runId);
    expect(run.status).toBe("failed");
    expect(run.finalResult).toMatchObject({ status: "failed", reason: "Rejected by deadline policy: nobody decided before the deadline" });
    expect((await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).status).toBe("rejected");
  });

  it("handoff: the run keeps waiting for the other group; at the next deadline it fails as expired", async () => {
    const { runId, escalationId } = await escalatedRun({ action: "handoff", handoffGroup: "leads", handoffHours: 4 });
    await advanceEscalationClock(fixture.database.db, escalationId, 8.1);
    await sweep(fixture.store);
    // The worker has nothing to do: the run stays suspended on the same escalation, now the leads'.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fixture.database.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("suspended");
    expect(await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: escalationId } })).toMatchObject({ status: "pending", reviewGroup: "leads" });

    await advanceEscalationClock(fixture.database.db, escalationId, 4.1);
    await sweep(fixture.store);
    const run = await ended(runId);
    expect(run.finalResult).toMatchObject({ status: "failed", reason: "escalation expired" });
  });

  it("handoff: the other group's approval resumes the run", async () => {
    const { runId, escalationId } = await escalatedRun({ action: "handoff", handoffGroup: "leads", handoffHours: 4 });
    await advanceEscalationClock(fixture.database.db, escalationId, 8.1);
    await sweep(fixture.store);
    // A person's decision is refused past the deadline; after the hand-off the escalation is open again.
    const outcome = await fixture.store.resolveEscalation({ escalationId, decision: { decision: "approve", decidedBy: "cy@example.test" }, refuseOverdue: true });
    expect(outcome).toEqual({ ok: true, runId });
    expect((await ended(runId)).status).toBe("succeeded");
  });
});
