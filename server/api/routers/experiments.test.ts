import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import { addCassette, insertDataset, saveAddWorkflow } from "@/server/services/experiments/testing/experiment-fixture";
import { createTestCaller, TEST_ADMIN, TEST_DATABASES } from "../testing/test-caller";

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`experiments router on ${provider}`, () => {
    let database: TestDatabase;
    let workflowId: string;
    let datasetId: string;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      workflowId = (await saveAddWorkflow(database.db)).workflowId;
      datasetId = (await insertDataset(database.db, "router-cases", [{ key: "a" }, { key: "b" }])).datasetId;
    });
    afterAll(() => database?.dispose());

    it("a reviewer creates an experiment: its samples exist and its first runs are queued within the limit", async () => {
      const reviewer = createTestCaller(database.db, { ...TEST_ADMIN, id: "r", email: "reviewer@example.com", role: "reviewer" });
      const { id, samples } = await reviewer.experiments.create({ workflowId, datasetId, k: 3, concurrency: 2, cassette: addCassette() });
      expect(samples).toBe(6);
      const detail = await reviewer.experiments.get({ id });
      expect(detail).toMatchObject({ status: "running", k: 3, concurrency: 2, createdBy: "reviewer@example.com", replay: true, progress: { ended: 0, total: 6, inFlight: 2 } });
      expect(detail.dataset).toMatchObject({ name: "router-cases", version: 1 });
      const options = await reviewer.experiments.formOptions();
      expect(options.workflows.map((workflow) => workflow.name)).toContain("exp-add");
      expect(options.datasets).toEqual([{ id: datasetId, name: "router-cases", versions: [{ version: 1, cases: 2 }] }]);
    });

    it("viewers see experiments but cannot start or cancel them", async () => {
      const viewer = createTestCaller(database.db, { ...TEST_ADMIN, id: "v", email: "viewer@example.com", role: "viewer" });
      const page = await viewer.experiments.list();
      expect(page.items.length).toBeGreaterThan(0);
      await expect(viewer.experiments.create({ workflowId, datasetId, k: 1, concurrency: 1 })).rejects.toThrow(/needs the reviewer role/);
      await expect(viewer.experiments.cancel({ id: page.items[0]!.id })).rejects.toThrow(/needs the reviewer role/);
      await expect(createTestCaller(database.db, null).experiments.list()).rejects.toThrow();
    });

    it("bad input names the field", async () => {
      const admin = createTestCaller(database.db);
      await expect(admin.experiments.create({ workflowId, datasetId, k: 21, concurrency: 1 })).rejects.toThrow(/k.*at most 20/s);
      await expect(admin.experiments.get({ id: "missing" })).rejects.toThrow('Experiment "missing" was not found');
    });
  });
}
