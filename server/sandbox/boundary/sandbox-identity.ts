/**
 * Which user the sandbox runs as, in the kernel's eyes. When the server runs as root, each live
 * sandbox gets a uid of its own from a range no account uses, so that (1) nothing in it is root
 * and it owns no file on the host, and (2) RLIMIT_NPROC, which the kernel counts per uid, counts
 * that one sandbox's processes only: a fork bomb in one run cannot starve a concurrent run.
 * Otherwise the sandbox runs as the server's own user (bwrap's unprivileged user namespace), and
 * the process limit is counted on top of what that user already runs.
 */

/** 0x7FFF0000: above the ranges Debian and systemd allocate (accounts, DynamicUser, containers). */
export const FIRST_SANDBOX_UID = 2_147_418_112;
export const SANDBOX_UIDS = 1024;
/** Inside the sandbox the code sees itself as `nobody`. */
export const SANDBOX_INNER_ID = 65534;

export interface SandboxIdentity {
  /** uid and gid to start bwrap as (root only); undefined: the server's own. */
  readonly hostId: number | undefined;
  /** Gives the uid back once every process of the sandbox is gone. */
  release(): void;
}

const inUse = new Set<number>();
// A random start, so that two server processes (web and worker) rarely hand out the same uid.
let next = Math.floor(Math.random() * SANDBOX_UIDS);

export function isRootServer(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** A uid for one sandbox (root) or the server's own; null when all 1024 are taken. */
export function acquireSandboxIdentity(): SandboxIdentity | null {
  if (!isRootServer()) return { hostId: undefined, release: () => {} };
  for (let tried = 0; tried < SANDBOX_UIDS; tried++) {
    const candidate = FIRST_SANDBOX_UID + ((next + tried) % SANDBOX_UIDS);
    if (inUse.has(candidate)) continue;
    inUse.add(candidate);
    next = (next + tried + 1) % SANDBOX_UIDS;
    let released = false;
    return {
      hostId: candidate,
      release: () => {
        if (released) return;
        released = true;
        inUse.delete(candidate);
      },
    };
  }
  return null;
}
