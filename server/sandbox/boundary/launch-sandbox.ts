import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { bwrapArguments, type SandboxProfile } from "./bwrap-arguments";
import { locateBoundaryTools } from "./boundary-tools";
import { countTasksOf } from "./count-tasks";
import { prlimitArguments, type ProcessLimits } from "./resource-limits";
import { acquireSandboxIdentity, type SandboxIdentity } from "./sandbox-identity";
import { seccompFilter } from "./seccomp-filter";

/**
 * Node gives a child its stdio, but any descriptor the server itself inherited without
 * close-on-exec (a supervisor's pipe, a test runner's channel) would pass on through bwrap into
 * the sandbox. This closes every descriptor from $1 up, then execs the rest of the arguments.
 */
const CLOSE_INHERITED = 'for fd in /proc/self/fd/*; do fd="${fd##*/}"; if [ "$fd" -ge "$1" ]; then eval "exec $fd>&-"; fi; done 2>/dev/null; shift; exec "$@"';

/** stdin, stdout, stderr and the caller's extra pipes (from fd 3) come first; then the filter and the data files. */
export interface LaunchRequest {
  readonly profile: SandboxProfile;
  readonly limits: ProcessLimits;
  /** Extra pipes the command gets from fd 3 on (e.g. a report channel). */
  readonly extraPipes: number;
}

export type Launched =
  | { readonly ok: true; readonly child: ChildProcess; readonly identity: SandboxIdentity; kill(): void }
  | { readonly ok: false; readonly message: string };

/**
 * Starts a command inside the boundary: `prlimit <limits> bwrap <profile> <command>`, as the
 * sandbox's own uid when the server is root. Its own process group (so the host can kill it and
 * the outer bwrap together); bwrap's --die-with-parent takes the sandbox's pid namespace down
 * with it, and everything in a pid namespace dies with its pid 1.
 */
export async function launchSandbox(request: LaunchRequest): Promise<Launched> {
  const tools = await locateBoundaryTools();
  if (!tools.ok) return tools;
  const filter = seccompFilter();
  if (!filter.ok) return filter;
  const identity = acquireSandboxIdentity();
  if (!identity) return { ok: false, message: "too many sandboxes are running at once (1024)" };

  const seccompFd = 3 + request.extraPipes;
  const firstDataFd = seccompFd + 1;
  const limits =
    identity.hostId === undefined
      ? // The server's own uid: RLIMIT_NPROC counts everything it runs already.
        { ...request.limits, tasks: request.limits.tasks + (await countTasksOf(process.getuid?.() ?? -1)) }
      : request.limits;
  const pipes = 3 + request.extraPipes + 1 + request.profile.dataFiles.length;
  const args = [...prlimitArguments(limits), "--", tools.bash, "-c", CLOSE_INHERITED, "close-inherited", String(pipes), tools.bwrap, ...bwrapArguments(request.profile, seccompFd, firstDataFd)];
  let child: ChildProcess;
  try {
    child = spawn(tools.prlimit, args, {
      env: {} as NodeJS.ProcessEnv,
      stdio: Array.from({ length: pipes }, () => "pipe"),
      detached: true,
      ...(identity.hostId === undefined ? {} : { uid: identity.hostId, gid: identity.hostId }),
    });
  } catch (error) {
    identity.release();
    return { ok: false, message: `the sandbox could not be started: ${error instanceof Error ? error.message : String(error)}` };
  }
  child.once("close", () => identity.release());
  child.once("error", () => identity.release());
  feed(child.stdio[seccompFd] as Writable | null, filter.bytes);
  request.profile.dataFiles.forEach(({ content }, index) => feed(child.stdio[firstDataFd + index] as Writable | null, content));
  const kill = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // ESRCH: gone already
    }
  };
  return { ok: true, child, identity, kill };
}

function feed(stream: Writable | null, content: Buffer): void {
  if (!stream) return;
  stream.on("error", () => {}); // bwrap died before reading: the exit status says why
  stream.end(content);
}
