import { chmod, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * Removes a run's temporary directory. The code may have made a subdirectory unreadable
 * (chmod 000 inside its own directory is allowed), which stops a plain recursive removal for
 * a non-root host; give everything back its owner's permissions and try again.
 */
export async function removeRunDirectory(directory: string): Promise<void> {
  try {
    await rm(directory, { recursive: true, force: true });
  } catch {
    await restorePermissions(directory);
    await rm(directory, { recursive: true, force: true }).catch(() => {});
  }
}

async function restorePermissions(directory: string): Promise<void> {
  await chmod(directory, 0o700).catch(() => {});
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) await restorePermissions(join(directory, entry.name));
  }
}
