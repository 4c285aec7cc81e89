import { lstat, readlink } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

export interface MirroredPaths {
  /** Real files and directories to bind read-only at the same path. */
  readonly readOnlyPaths: string[];
  /** The symbolic links met on the way, to recreate in the sandbox (path -> target, as on the host). */
  readonly symlinks: { target: string; path: string }[];
}

const MAX_LINKS = 40; // the kernel's own limit on links followed in one lookup

/**
 * What the sandbox needs so that `paths` resolve inside it exactly as on the host, and nothing
 * more: every symbolic link met while resolving them (e.g. /lib -> usr/lib, then
 * libffi.so.8 -> libffi.so.8.1.2), recreated as a link, and the real file or directory at the
 * end, bound read-only. Symlinks are recorded at their canonical location so that none is
 * created through another.
 */
export async function mirrorPaths(paths: readonly string[]): Promise<MirroredPaths> {
  const binds = new Set<string>();
  const links = new Map<string, string>();
  for (const path of paths) binds.add(await resolveRecording(path, links));
  return { readOnlyPaths: [...binds].sort(), symlinks: [...links].map(([path, target]) => ({ path, target })) };
}

/** Resolves `path` component by component, recording each link at its canonical place; returns the real path. */
async function resolveRecording(path: string, links: Map<string, string>): Promise<string> {
  if (!isAbsolute(path)) throw new Error(`not an absolute path: ${path}`);
  let resolved = "/";
  const pending = path.split("/").filter(Boolean);
  let followed = 0;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === ".") continue;
    if (part === "..") {
      resolved = dirname(resolved);
      continue;
    }
    const candidate = join(resolved, part);
    const stats = await lstat(candidate);
    if (!stats.isSymbolicLink()) {
      resolved = candidate;
      continue;
    }
    if (++followed > MAX_LINKS) throw new Error(`too many symbolic links resolving ${path}`);
    const target = await readlink(candidate);
    links.set(candidate, target);
    const next = resolve(resolved, target);
    resolved = "/";
    pending.unshift(...next.split("/").filter(Boolean));
  }
  return resolved;
}
