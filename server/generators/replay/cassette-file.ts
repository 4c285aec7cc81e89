/**
 * Reading a cassette from disk, for the two callers allowed to: the operator's own command line
 * (`dualstate run --cassette FILE`) and a cassette named by a document, which is looked up only
 * in the directories an administrator configured (DUALSTATE_CASSETTE_DIR) or that ship with the
 * product (examples/). A path written in a document is never opened.
 *
 * Whatever is read is bounded: a regular file only (no FIFO that blocks, no /dev/zero that never
 * ends, no symbolic link out of the directory), at most MAX_CASSETTE_BYTES, checked before reading
 * and again while reading (a file that grows). Errors name the problem, never the file's content.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { CassetteError, isCassetteName, parseCassetteText, type Cassette } from "./cassette";

export const MAX_CASSETTE_BYTES = 8 * 1024 * 1024;

/** `tdd-lru-cache` is the file `tdd-lru-cache.cassette.json`; a name ending in .json is the file itself. */
function fileNameOf(name: string): string {
  return name.endsWith(".json") ? name : `${name}.cassette.json`;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/**
 * Reads at most `maxBytes` of an open regular file; the size is checked before reading and while
 * reading, so a file that grows meanwhile is refused too.
 */
function readBounded(path: string, label: string, maxBytes: number, flags: number): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below refuses it anyway.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CassetteError("CASSETTE_NOT_FOUND", `${label} was not found`);
    if (code === "ELOOP") throw new CassetteError("CASSETTE_NOT_FOUND", `${label} is a symbolic link, not a regular file`);
    if (code === "EACCES" || code === "EPERM") throw new CassetteError("CASSETTE_NOT_FOUND", `${label} cannot be read (permission denied)`);
    throw new CassetteError("CASSETTE_NOT_FOUND", `${label} cannot be read (${code ?? "unknown error"})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CassetteError("INVALID_CASSETTE", `${label} is not a regular file`);
    if (stat.size > maxBytes) throw new CassetteError("INVALID_CASSETTE", `${label} is larger than ${mib(maxBytes)}`);
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(stat.size + 1, 64 * 1024)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw new CassetteError("INVALID_CASSETTE", `${label} is larger than ${mib(maxBytes)}`);
        throw new CassetteError("INVALID_CASSETTE", `${label} grew while it was read`);
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw new CassetteError("INVALID_CASSETTE", `${label} is larger than ${mib(maxBytes)}`);
    }
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * The operator's own cassette file (`dualstate run --cassette FILE`): any path they name, as a
 * regular file within the size limit.
 * @throws CassetteError naming the path and the problem.
 */
export function readCassetteFile(path: string, maxBytes = MAX_CASSETTE_BYTES): Cassette {
  const label = `cassette file ${path}`;
  return parseCassetteText(readBounded(path, label, maxBytes, 0), label);
}

/**
 * A cassette named by a document, looked up in `directories` in order. The name has no path in
 * it; its file must resolve (symbolic links followed) to a regular file inside the directory.
 * @throws CassetteError (CASSETTE_NOT_FOUND, INVALID_CASSETTE) naming the cassette and the problem.
 */
export function readNamedCassette(name: string, directories: readonly string[], maxBytes = MAX_CASSETTE_BYTES): Cassette {
  const label = `cassette '${isCassetteName(name) ? name : "(invalid name)"}'`;
  if (!isCassetteName(name)) {
    throw new CassetteError("INVALID_CASSETTE", `${label}: a cassette is named by letters, digits, '.', '_' and '-' (no path); put the file in the cassette directory (DUALSTATE_CASSETTE_DIR)`);
  }
  for (const directory of directories) {
    let root: string;
    let resolved: string;
    try {
      root = realpathSync(directory);
      resolved = realpathSync(join(root, fileNameOf(name)));
    } catch {
      continue; // Not in this directory (or the directory is missing): try the next one.
    }
    if (!resolved.startsWith(root + sep)) throw new CassetteError("INVALID_CASSETTE", `${label} resolves outside the cassette directory`);
    return parseCassetteText(readBounded(resolved, label, maxBytes, constants.O_NOFOLLOW), label);
  }
  const where = directories.length === 0 ? "no cassette directory is configured (DUALSTATE_CASSETTE_DIR)" : "it is not in the cassette directory (DUALSTATE_CASSETTE_DIR) or the bundled examples";
  throw new CassetteError("CASSETTE_NOT_FOUND", `${label} was not found: ${where}`);
}
