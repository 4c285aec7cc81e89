import type { SandboxProfile } from "../boundary/bwrap-arguments";
import type { ProcessLimits } from "../boundary/resource-limits";
import type { SandboxLimits } from "../types";
import type { SandboxInterpreter } from "./sandbox-interpreter";

const MB = 1024 * 1024;
/** Where the runner's files and the run's private directory are inside the sandbox. */
export const RUNNER_DIRECTORY = "/sandbox/runner";
export const WORK_DIRECTORY = "/sandbox/work";
/**
 * Address space the interpreter needs besides the code's own memory: Python 3.11 with the runner
 * loaded and its worker thread's 8 MB stack measures 22-25 MB; stdlib imports (asyncio, unittest,
 * decimal and 25 more) add about 17 MB, and a second thread's stack 8 MB.
 */
export const INTERPRETER_ADDRESS_SPACE_MB = 56;
/** Per-file size limit, total size of the private directory, open descriptors, processes+threads. */
export const MAX_FILE_BYTES = 4 * MB;
export const WORK_DIRECTORY_BYTES = 32 * MB;
/** The runner moves its report pipe to a random descriptor below 250 before lowering this to 64 itself. */
export const MAX_OPEN_FILES = 256;
/** bwrap's monitor and the namespace's pid 1 count too, so the code itself gets about 28. */
export const MAX_TASKS = 32;

/** The runner's files, copied into the sandbox read-only. */
export interface RunnerFiles {
  readonly [name: string]: Buffer;
}

/** The bwrap profile for one Python sandbox: the interpreter's files, the runner, a private work directory. */
export function pythonSandboxProfile(interpreter: SandboxInterpreter, runner: RunnerFiles, command: readonly string[]): SandboxProfile {
  return {
    readOnlyPaths: interpreter.files.readOnlyPaths,
    symlinks: interpreter.files.symlinks,
    dataFiles: Object.entries(runner).map(([name, content]) => ({ path: `${RUNNER_DIRECTORY}/${name}`, content })),
    workDirectory: WORK_DIRECTORY,
    workDirectoryBytes: WORK_DIRECTORY_BYTES,
    // MALLOC_ARENA_MAX=1 keeps glibc from reserving 64 MB of address space per thread (RLIMIT_AS
    // counts it); TMPDIR makes tempfile use the private directory.
    environment: { MALLOC_ARENA_MAX: "1", TMPDIR: WORK_DIRECTORY },
    command: [interpreter.executable, "-I", "-S", "-B", ...command],
  };
}

/** The kernel's limits for a run with these sandbox limits. */
export function pythonProcessLimits(limits: Pick<SandboxLimits, "cpuMs" | "memoryMb">): ProcessLimits {
  return {
    addressSpaceBytes: (limits.memoryMb + INTERPRETER_ADDRESS_SPACE_MB) * MB,
    cpuMs: limits.cpuMs,
    fileSizeBytes: MAX_FILE_BYTES,
    openFiles: MAX_OPEN_FILES,
    tasks: MAX_TASKS,
  };
}
