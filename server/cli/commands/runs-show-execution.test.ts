import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "../../persistence/testing/test-database";
import type { RunDescription } from "../../services/runs/describe-run";
import { seedSuspendedFamily, type SeededFamily } from "../../services/runs/execution/testing/seed-suspended-run";
import { main } from "../main";

for (const provider of TEST_PROVIDERS) {
  describe(`dualstate runs show: turns, waits, parent and sub-runs on ${provider}`, () => {
    let database: TestDatabase;
    let seeded: SeededFamily;

    beforeAll(async () => {
      database = await createTestDatabase(provider);
      seeded = await seedSuspendedFamily(database.db);
    });
    afterAll(() => database?.dispose());

    async function cli(...argv: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(argv, { DATABASE_URL: database.url } as Record<string, string> as NodeJS.ProcessEnv, { out: (text) => void out.push(text), err: (text) => void err.push(text) });
      return { code, out: out.join("\n"), err: err.join("\n") };
    }

    it("prints one line per turn, each waiting call with its deadline, and the sub-run", async () => {
      const { code, out } = await cli("runs", "show", seeded.parentId);
      expect(code).toBe(0);
      const lines = out.split("\n");
      const turns = lines.filter((line) => /^ {4}epoch \d+ /.test(line));
      expect(turns).toEqual([
        "    epoch 1  start   suspended waiting for lookup_owner (external), ping_pager (external)",
        "    epoch 2  report  lost      the lease of worker-a expired; the watchdog reclaimed the run",
        "    epoch 3  report  deferred  database unavailable",
        "    epoch 4  report  suspended waiting for ask_release_manager (person), write_changelog (workflow), deploy_check (external)",
      ]);
      expect(out).toContain("  turns: 4\n");
      expect(out).toContain("  waiting for 3 calls:");
      const since = seeded.at(300).toISOString();
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^    ${seeded.calls.person}  ask_release_manager  person  since ${since}  deadline \\S+Z \\(2 d 23 h left\\)$`)));
      expect(out).toContain("      question: May we freeze main on Friday?");
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^    ${seeded.calls.workflow}  write_changelog  workflow  since ${since}  deadline `)));
      expect(out).toContain(`      sub-run: ${seeded.childId} (changelog)`);
      expect(out).toContain(`      report: npx dualstate runs report ${seeded.parentId} ${seeded.calls.external} --result '{"healthy":false,"note":""}'`);
      expect(out).toContain(`  sub-runs: 1\n    ${seeded.childId}  running    for call ${seeded.calls.workflow} (write_changelog)`);
      expect(out).toContain(`  watchdog: ${seeded.at(100).toISOString()}: lease of worker-a expired at epoch 2`);
      expect(out).toContain("  watchdog actions: 4");
      // Answered and timed-out calls are not waited for.
      expect(out).not.toContain(`    ${seeded.calls.answered}  lookup_owner`);
    });

    it("prints the sub-run's parent and the call that waits for it", async () => {
      const { out } = await cli("runs", "show", seeded.childId);
      expect(out).toContain(`  sub-run of ${seeded.parentId} (call ${seeded.calls.workflow}: write_changelog in step plan, waiting)`);
      expect(out).toContain("  turns: 0");
      expect(out).not.toContain("waiting for");
    });

    it("gives the same data in --json", async () => {
      const { code, out } = await cli("runs", "show", seeded.parentId, "--json");
      expect(code).toBe(0);
      const shown = JSON.parse(out) as RunDescription;
      expect(shown.head).toMatchObject({ id: seeded.parentId, status: "suspended", epoch: 4 });
      expect(shown.execution.turns.items.map((turn) => [turn.epoch, turn.kind, turn.outcome, turn.reason])).toEqual([
        [1, "start", "suspended", "waiting for lookup_owner (external), ping_pager (external)"],
        [2, "report", "lost", "the lease of worker-a expired; the watchdog reclaimed the run"],
        [3, "report", "deferred", "database unavailable"],
        [4, "report", "suspended", "waiting for ask_release_manager (person), write_changelog (workflow), deploy_check (external)"],
      ]);
      expect(shown.execution.waits.waiting).toBe(3);
      expect(shown.execution.waits.items.filter((wait) => wait.status === "waiting").map((wait) => [wait.callId, wait.tool, wait.kind, wait.since, wait.deadlineAt])).toEqual([
        [seeded.calls.person, "ask_release_manager", "person", seeded.at(300).toISOString(), expect.stringMatching(/Z$/)],
        [seeded.calls.workflow, "write_changelog", "workflow", seeded.at(300).toISOString(), expect.stringMatching(/Z$/)],
        [seeded.calls.external, "deploy_check", "external", seeded.at(300).toISOString(), expect.stringMatching(/Z$/)],
      ]);
      expect(shown.execution.family).toMatchObject({ parent: null, childCount: 1, children: [{ runId: seeded.childId, callId: seeded.calls.workflow }] });
      const child = JSON.parse((await cli("runs", "show", seeded.childId, "--json")).out) as RunDescription;
      expect(child.execution.family.parent).toMatchObject({ runId: seeded.parentId, callId: seeded.calls.workflow });
    });
  });
}
