// A voter in a process of its own, for the quorum race test (server/durable/quorum-race.int.test.ts):
// reads one JSON vote per line on stdin, casts it through the durable store on its own connection,
// and writes `{ id, outcome }` per line on stdout. Separate processes make SQLite's votes really
// concurrent (better-sqlite3 is synchronous, so transactions of one process never interleave).
import { createInterface } from "node:readline";
import { DurableStore } from "../durable-store";
import { openSqlClient } from "../../persistence/sql/open-sql-client";

interface VoteRequest {
  readonly id: number;
  readonly escalationId: string;
  readonly decision: "approve" | "reject";
  readonly decidedBy: string;
}

const url = process.env.VOTER_DATABASE_URL;
if (!url) throw new Error("voter-process: VOTER_DATABASE_URL is not set");
const store = new DurableStore(openSqlClient(url));
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = JSON.parse(line) as VoteRequest;
  store
    .resolveEscalation({
      escalationId: request.escalationId,
      decision: { decision: request.decision, decidedBy: request.decidedBy, contentHash: "h" },
      decidedHash: "h",
      auditActor: { id: null, email: request.decidedBy },
      refuseOverdue: true,
      asQuorumVote: true,
    })
    .then(
      (outcome) => process.stdout.write(`${JSON.stringify({ id: request.id, outcome })}\n`),
      (error: unknown) => process.stdout.write(`${JSON.stringify({ id: request.id, error: String(error) })}\n`),
    );
});
lines.on("close", () => void store.close());
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
