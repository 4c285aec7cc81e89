import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { projectRoot } from "../../persistence/project-root";
import type { ResolutionOutcome } from "../store/resolve-escalation";

export interface SpawnedVoter {
  vote(escalationId: string, decision: "approve" | "reject", decidedBy: string): Promise<ResolutionOutcome>;
  close(): Promise<void>;
}

/** Starts voter-process.ts on `databaseUrl` and resolves once it is ready to vote. */
export async function spawnVoter(databaseUrl: string): Promise<SpawnedVoter> {
  const root = projectRoot();
  const child = spawn(process.execPath, [join(root, "node_modules", "tsx", "dist", "cli.mjs"), "--tsconfig", join(root, "tsconfig.json"), join(root, "server", "durable", "testing", "voter-process.ts")], {
    cwd: root,
    env: { ...process.env, VOTER_DATABASE_URL: databaseUrl },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const waiting = new Map<number, { resolve: (outcome: ResolutionOutcome) => void; reject: (error: Error) => void }>();
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once("exit", (code) => reject(new Error(`voter exited (${code}) before it was ready: ${stderr}`)));
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { ready?: true; id?: number; outcome?: ResolutionOutcome; error?: string };
    if (message.ready) return ready();
    const pending = waiting.get(message.id ?? -1);
    if (!pending) return;
    waiting.delete(message.id ?? -1);
    if (message.error !== undefined) pending.reject(new Error(message.error));
    else pending.resolve(message.outcome as ResolutionOutcome);
  });
  await started;
  let next = 0;
  return {
    vote(escalationId, decision, decidedBy) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.stdin.write(`${JSON.stringify({ id, escalationId, decision, decidedBy })}\n`);
      });
    },
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exited;
    },
  };
}
