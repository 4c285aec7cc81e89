/**
 * The bwrap command line for one sandbox: every namespace unshared (user, pid, network, IPC, UTS,
 * cgroup), no way to make new user namespaces, all capabilities dropped, an empty environment,
 * a new session (no terminal to inject input into), and a root file system that holds only what
 * the profile names: read-only binds of the interpreter and its libraries, read-only copies of
 * the runner's files, a size-limited private tmpfs as the working directory, and a minimal /dev.
 * No /proc is mounted, and nothing of the host's /tmp, /home, /root, /etc or the project.
 */
import { SANDBOX_INNER_ID } from "./sandbox-identity";

export interface SandboxProfile {
  /** Host paths (files or directories) bound read-only at the same path. */
  readonly readOnlyPaths: readonly string[];
  /** Symbolic links to create, e.g. /lib -> usr/lib as on the host. */
  readonly symlinks: readonly { readonly target: string; readonly path: string }[];
  /** Files copied in read-only (bwrap reads each from its own pipe), e.g. the runner's sources. */
  readonly dataFiles: readonly { readonly path: string; readonly content: Buffer }[];
  /** The private writable directory the command starts in (a tmpfs), and its size. */
  readonly workDirectory: string;
  readonly workDirectoryBytes: number;
  /** The command's whole environment. */
  readonly environment: Readonly<Record<string, string>>;
  readonly command: readonly string[];
}

/**
 * bwrap's arguments. File descriptors: `seccompFd` carries the filter, and the data files come
 * from `firstDataFd`, `firstDataFd + 1`, ... in the profile's order; bwrap closes each once read.
 */
export function bwrapArguments(profile: SandboxProfile, seccompFd: number, firstDataFd: number): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--uid",
    String(SANDBOX_INNER_ID),
    "--gid",
    String(SANDBOX_INNER_ID),
    "--hostname",
    "sandbox",
    "--clearenv",
  ];
  for (const [name, value] of Object.entries(profile.environment)) args.push("--setenv", name, value);
  for (const path of profile.readOnlyPaths) args.push("--ro-bind", path, path);
  for (const { target, path } of profile.symlinks) args.push("--symlink", target, path);
  profile.dataFiles.forEach(({ path }, index) => args.push("--perms", "0444", "--ro-bind-data", String(firstDataFd + index), path));
  // bwrap's /dev is a tmpfs of unbounded size: read-only, so it cannot be filled.
  args.push("--dev", "/dev");
  args.push("--size", String(profile.workDirectoryBytes), "--perms", "0700", "--tmpfs", profile.workDirectory);
  args.push("--remount-ro", "/dev", "--remount-ro", "/");
  args.push("--chdir", profile.workDirectory, "--seccomp", String(seccompFd), "--", ...profile.command);
  return args;
}
