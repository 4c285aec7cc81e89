import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { seedSuspendedFamily } from "@/server/services/runs/execution/testing/seed-suspended-run";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`run.execution on ${provider}`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
    });
    afterAll(() => database?.dispose());

    it("gives a viewer what a suspended run waits for, and run.get counts the waiting calls", async () => {
      const seeded = await seedSuspendedFamily(database.db);
      const viewer = createTestCaller(database.db, { id: "v", email: "viewer@example.com", role: "viewer", via: "session" });

      const execution = await viewer.run.execution({ id: seeded.parentId });
      expect(execution.waits.items.filter((wait) => wait.status === "waiting").map((wait) => wait.callId)).toEqual([seeded.calls.person, seeded.calls.workflow, seeded.calls.external]);
      expect(execution.family.children.map((child) => child.runId)).toEqual([seeded.childId]);
      expect((await viewer.run.get({ id: seeded.parentId })).waitingToolCount).toBe(3);
    });

    it("refuses a caller who is not signed in, and names an unknown run", async () => {
      await expect(createTestCaller(database.db, null).run.execution({ id: "x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(createTestCaller(database.db).run.execution({ id: "no-such-run" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("no-such-run") });
    });
  });
}
