/**
 * Resource limits of a sandbox, as `prlimit` arguments. prlimit sets them on itself and then
 * execs bwrap, so they hold for every process of the sandbox from its first instruction. Soft and
 * hard limits are equal except for CPU time; the sandbox has no CAP_SYS_RESOURCE in the host's
 * user namespace, so nothing inside can raise a hard limit.
 */
export interface ProcessLimits {
  /** RLIMIT_AS, bytes of address space per process. */
  readonly addressSpaceBytes: number;
  /** RLIMIT_CPU, per process: SIGXCPU after this many ms (rounded up to whole seconds), SIGKILL a second later. */
  readonly cpuMs: number;
  /** RLIMIT_FSIZE, bytes per file written. */
  readonly fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  readonly openFiles: number;
  /** RLIMIT_NPROC: processes and threads of the sandbox's uid, bwrap's own two included. */
  readonly tasks: number;
}

export function prlimitArguments(limits: ProcessLimits): string[] {
  const cpuSeconds = Math.max(1, Math.ceil(limits.cpuMs / 1000));
  const same = (value: number) => `${Math.floor(value)}:${Math.floor(value)}`;
  return [
    `--as=${same(limits.addressSpaceBytes)}`,
    `--cpu=${cpuSeconds}:${cpuSeconds + 1}`,
    `--fsize=${same(limits.fileSizeBytes)}`,
    `--nofile=${same(limits.openFiles)}`,
    `--nproc=${same(limits.tasks)}`,
    "--core=0:0",
    "--memlock=0:0",
    "--msgqueue=0:0",
  ];
}
