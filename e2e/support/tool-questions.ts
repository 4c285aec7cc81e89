import { randomUUID } from "node:crypto";
import { initialWorkflowState } from "../../server/engine";
import { openSqlClient } from "../../server/persistence/sql/open-sql-client";
import { readBundledCassette } from "../../server/services/examples/bundled-cassette";

/** The database the e2e server runs on (playwright.config.ts). */
const E2E_DATABASE_URL = "file:./data/e2e/dualstate-e2e.db";

export interface SeededQuestion {
  readonly runId: string;
  readonly callId: string;
}

/**
 * A run of the bundled prime-validator example suspended on a person's question, written into the
 * e2e server's database by the test itself (the test's own access to its database file, not a
 * route of the app): the run as the engine leaves it when a tool asks a person, with its waiting
 * set of one call and no message in its inbox. Answering it queues the report that resumes the
 * run, which replays the example's cassette.
 */
export async function seedPersonQuestion(question: { tool: string; question: string; answerSchema: object; specification: string }): Promise<SeededQuestion> {
  const sql = openSqlClient(E2E_DATABASE_URL);
  const d = sql.dialect;
  try {
    const [version] = await sql.query<{ id: string }>(`SELECT v."id" FROM "WorkflowVersion" v JOIN "Workflow" w ON w."id" = v."workflowId" WHERE w."name" = 'prime-validator' ORDER BY v."version" DESC LIMIT 1`);
    if (!version) throw new Error("the e2e database has no prime-validator workflow (the first start loads the examples)");
    const runId = randomUUID();
    const callId = randomUUID();
    const deadline = new Date(Date.now() + 2 * 60 * 60 * 1000);
    await sql.transaction(async (tx) => {
      await tx.execute(
        `INSERT INTO "Run" ("id", "workflowVersionId", "specification", "status", "workflowState", "contextValues", "generatorOverride", "currentStep", "waitingToolCount", "resumeDeadline", "startedAt", "createdAt", "updatedAt")
         VALUES (?, ?, ?, 'suspended', ?, ?, ?, 'implement', 1, ?, ${d.now}, ${d.now}, ${d.now})`,
        [runId, version.id, question.specification, d.json(initialWorkflowState), d.json({}), d.json({ kind: "replay", cassette: readBundledCassette("prime-validator") }), d.timestamp(deadline)],
      );
      await tx.execute(
        `INSERT INTO "ToolWait" ("id", "runId", "callKey", "stepName", "attempt", "tool", "kind", "input", "question", "resultSchema", "status", "deadlineAt", "createdAt")
         VALUES (?, ?, ?, 'implement', 1, ?, 'person', ?, ?, ?, 'waiting', ?, ${d.now})`,
        [callId, runId, `implement/attempt-1/${question.tool}-1`, question.tool, d.json({ question: question.question }), question.question, d.json(question.answerSchema), d.timestamp(deadline)],
      );
    });
    return { runId, callId };
  } finally {
    await sql.close();
  }
}
