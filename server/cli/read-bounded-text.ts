import { closeSync, openSync, readSync } from "node:fs";

/** Larger than any workflow document, artifact or edit a command takes; bounds what is read. */
export const MAX_CLI_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A file named on the command line, as UTF-8 text, reading at most `maxBytes` + 1 bytes: a
 * mistyped path to a large file, or a device such as /dev/zero, is refused instead of filling
 * memory. Errors carry Node's `code` (ENOENT, EISDIR, …; EFBIG when too large) for the caller's message.
 */
export function readBoundedText(path: string, maxBytes: number = MAX_CLI_FILE_BYTES): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) {
        throw Object.assign(new Error(`is larger than ${maxBytes / (1024 * 1024)} MiB`), { code: "EFBIG" });
      }
    }
    return buffer.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}
