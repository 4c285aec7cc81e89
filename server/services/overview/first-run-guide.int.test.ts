import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { createTRPCContext, type Actor } from "@/server/api/trpc";
import { TEST_PROVIDERS } from "@/server/persistence/testing/test-database";
import { until } from "@/server/testing/until";
import { createDoorbell } from "@/server/durable/doorbell";
import { RunWorker } from "@/server/worker/run-worker";
import { createDurableFixture, type DurableFixture } from "@/server/worker/testing/durable-fixture";
import { pairDurableStore } from "@/server/services/durable-store-for";
import { GUIDE_EXAMPLE } from "./first-run-guide";

const ada: Actor = { id: "u-ada", email: "ada@example.test", role: "reviewer", via: "session" };
const bob: Actor = { id: "u-bob", email: "bob@example.test", role: "admin", via: "session" };
const vic: Actor = { id: "u-vic", email: "vic@example.test", role: "viewer", via: "session" };

describe.each(TEST_PROVIDERS)("the overview's first-run guide on %s", (provider) => {
  let fixture: DurableFixture;
  let worker: RunWorker;
  const as = (actor: Actor) => createCaller(createTRPCContext({ db: fixture.database.db, actor }));

  beforeAll(async () => {
    fixture = await createDurableFixture(provider);
    // Decisions resume the run through the fixture's run store, as the server's does.
    pairDurableStore(fixture.database.db, fixture.store);
    worker = new RunWorker(fixture.store, createDoorbell(fixture.database.url), { leaseMs: 5_000, escalationTimeoutMs: 60_000, maxRetries: 3, compile: {}, concurrency: 1, pollMs: 100 });
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await fixture.dispose();
  });

  it("follows the path from data: run the example, watch it, review its escalation; each person's review is their own", async () => {
    const fresh = await as(ada).overview.firstRunGuide();
    expect(fresh).toMatchObject({ run: null, escalation: null, hasRuns: false, steps: { ran: false, watched: false, reviewed: false }, mayStartRuns: true, mayDecide: true });
    expect(fresh.example).toMatchObject({ name: GUIDE_EXAMPLE, specification: expect.stringContaining("disk usage") });
    expect(await as(vic).overview.firstRunGuide()).toMatchObject({ mayStartRuns: false, mayDecide: false });

    // Queued and not yet claimed: run, not yet watched.
    const { runId } = await fixture.store.enqueueRun({ workflowVersionId: fixture.versions[GUIDE_EXAMPLE]!, specification: "disk usage", generatorOverride: fixture.replay(GUIDE_EXAMPLE) });
    expect(await as(ada).overview.firstRunGuide()).toMatchObject({ run: { id: runId, status: "queued" }, hasRuns: true, steps: { ran: true, watched: false, reviewed: false } });

    worker.start();
    const suspended = await until(async () => {
      const guide = await as(ada).overview.firstRunGuide();
      return guide.run?.status === "suspended" && guide.escalation ? guide : undefined;
    });
    expect(suspended).toMatchObject({ escalation: { status: "pending" }, steps: { ran: true, watched: true, reviewed: false } });

    const escalation = await fixture.database.db.escalation.findUniqueOrThrow({ where: { id: suspended.escalation!.id }, include: { artifact: true } });
    // As on the review page: fatal code is approved only by a reviewer who has seen it.
    await as(ada).escalation.get({ id: escalation.id });
    await as(ada).escalation.decide({ escalationId: escalation.id, contentHash: escalation.artifact?.contentHash ?? "", decision: "approve", comment: "reviewed: fine here" });

    expect((await as(ada).overview.firstRunGuide()).steps.reviewed).toBe(true);
    // Bob may decide but has not: his guide still points at the review.
    expect((await as(bob).overview.firstRunGuide()).steps.reviewed).toBe(false);
    // A viewer cannot decide: the guide stays until they hide it, showing the escalation as decided.
    expect(await as(vic).overview.firstRunGuide()).toMatchObject({ escalation: { status: "approved" }, steps: { watched: true, reviewed: false } });
  });

  it("has no example to offer when the bundled one is gone from the database", async () => {
    await fixture.database.db.workflow.update({ where: { name: GUIDE_EXAMPLE }, data: { name: `${GUIDE_EXAMPLE}-renamed` } });
    expect(await as(ada).overview.firstRunGuide()).toMatchObject({ exampleName: GUIDE_EXAMPLE, example: null, run: null, hasRuns: true });
  });
});
