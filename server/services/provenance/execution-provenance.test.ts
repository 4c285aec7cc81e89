import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { seedSuspendedFamily, type SeededFamily } from "../runs/execution/testing/seed-suspended-run";
import { getProvenance } from "./get-provenance";
import { callNodeId, runNodeId } from "./execution-graph";

for (const provider of TEST_PROVIDERS) {
  describe(`provenance draws execution edges on ${provider}`, () => {
    let database: TestDatabase;
    let seeded: SeededFamily;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      seeded = await seedSuspendedFamily(database.db);
      // Attempt 1 of step plan ended (its calls were answered); attempt 2 waits on its calls, with no artifact yet.
      await database.db.artifact.create({
        data: { id: `${seeded.parentId}-a1`, runId: seeded.parentId, stepName: "plan", guardId: "g_plan", attempt: 1, content: "plan v1", contentHash: "f".repeat(64), passed: false, fatal: false, feedback: "too vague", createdAt: seeded.at(260) },
      });
      await database.db.artifact.create({
        data: { id: `${seeded.childId}-a1`, runId: seeded.childId, stepName: "changelog", guardId: "g_log", attempt: 1, content: "## v1.3", contentHash: "e".repeat(64), passed: true, fatal: false, feedback: "", createdAt: seeded.at(320) },
      });
    });
    afterAll(() => database?.dispose());

    const described = (graph: Awaited<ReturnType<typeof getProvenance>>["execution"]) => graph.edges.map((edge) => `${edge.kind}/${edge.phase}:${edge.source}->${edge.target}`);

    it("puts each call next to the attempt it belongs to: tool_call from the attempt, report back to it", async () => {
      const { execution, graph } = await getProvenance(database.db, seeded.parentId);
      const artifact = `${seeded.parentId}-a1`;
      expect(graph.nodes.map((node) => node.id)).toEqual([artifact]);
      expect(execution.nodes.filter((node) => node.kind === "call").map((node) => node.kind === "call" && `${node.tool}@${node.step}/${node.attempt}:${node.status}`)).toEqual([
        "lookup_owner@plan/1:reported",
        "ping_pager@plan/1:timed_out",
        "ask_release_manager@plan/2:waiting",
        "write_changelog@plan/2:waiting",
        "deploy_check@plan/2:waiting",
      ]);
      const edges = described(execution);
      expect(edges).toContain(`tool_call/request:${artifact}->${callNodeId(seeded.calls.answered)}`);
      expect(edges).toContain(`report/response:${callNodeId(seeded.calls.answered)}->${artifact}`);
      expect(edges).toContain(`report/response:${callNodeId(seeded.calls.timedOut)}->${artifact}`);
      expect(execution.edges.filter((edge) => edge.kind === "report").map((edge) => edge.label)).toEqual(["report/response", "report/response (timeout)"]);
      // Attempt 2 has no artifact yet: its calls are drawn, without an edge to an attempt.
      expect(edges.filter((edge) => edge.includes(callNodeId(seeded.calls.person)))).toEqual([]);
    });

    it("joins the parent's call to its sub-run, and the sub-run back to its parent", async () => {
      const parent = await getProvenance(database.db, seeded.parentId);
      expect(parent.execution.nodes.find((node) => node.id === runNodeId(seeded.childId))).toMatchObject({ kind: "run", relation: "child", status: "running" });
      expect(described(parent.execution)).toContain(`join/request:${callNodeId(seeded.calls.workflow)}->${runNodeId(seeded.childId)}`);

      const child = await getProvenance(database.db, seeded.childId);
      expect(child.execution.nodes).toEqual([expect.objectContaining({ kind: "run", runId: seeded.parentId, relation: "parent", status: "suspended" })]);
      expect(described(child.execution)).toEqual([`join/request:${runNodeId(seeded.parentId)}->${seeded.childId}-a1`]);
    });
  });
}
