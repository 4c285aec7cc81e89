import { EventEmitter } from "node:events";
import pg from "pg";
import { parseDatabaseUrl } from "../persistence/database-url";

/**
 * A wake-up for idle workers (003: only a doorbell; the inbox is the source of truth, and
 * workers also poll as the safety net). PostgreSQL: LISTEN/NOTIFY across processes and machines;
 * SQLite: an in-process signal, other processes find work by polling.
 */
export interface Doorbell {
  /** Resolves when rung or after `ms`, whichever comes first. */
  wait(ms: number): Promise<void>;
  ring(): void;
  close(): Promise<void>;
}

// One signal per process, kept on globalThis so Next.js's separately bundled server code and the
// embedded worker share it. A ring wakes every local worker; each then checks the inbox.
const globalForDoorbell = globalThis as unknown as { dualstateDoorbell?: EventEmitter };

function processSignal(): EventEmitter {
  if (!globalForDoorbell.dualstateDoorbell) {
    globalForDoorbell.dualstateDoorbell = new EventEmitter();
    globalForDoorbell.dualstateDoorbell.setMaxListeners(0);
  }
  return globalForDoorbell.dualstateDoorbell;
}

/** Wakes this process's workers (after committing an inbox message from outside the run store). */
export function ringLocalDoorbell(): void {
  processSignal().emit("ring");
  // Under `dualstate start` the web server is a child of the CLI process, where the embedded
  // worker runs: the IPC channel carries the ring across.
  if (process.send && process.connected) process.send(IPC_RING, undefined, undefined, () => {});
}

/** The IPC message a child process sends to ring its parent's doorbell. */
export const IPC_RING = "dualstate:doorbell";

function waitOn(emitter: EventEmitter, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off("ring", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter.on("ring", done);
  });
}

/** The doorbell of the database at `databaseUrl`; `ring()` always signals this process too. */
export function createDoorbell(databaseUrl: string): Doorbell {
  const target = parseDatabaseUrl(databaseUrl);
  const local = processSignal();
  if (target.provider === "sqlite") {
    return { wait: (ms) => waitOn(local, ms), ring: () => local.emit("ring"), close: async () => {} };
  }
  let listener: pg.Client | null = null;
  let closed = false;
  const listen = async () => {
    if (closed) return;
    const client = new pg.Client({ connectionString: target.location });
    client.on("notification", () => local.emit("ring"));
    // A lost listener (server restart) is replaced; until then polling finds the work.
    client.on("error", () => {
      listener = null;
      setTimeout(() => void listen().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query("LISTEN dualstate_inbox");
    listener = client;
  };
  void listen().catch(() => setTimeout(() => void listen().catch(() => {}), 1000).unref());
  return {
    wait: (ms) => waitOn(local, ms),
    ring: () => local.emit("ring"),
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
    },
  };
}
