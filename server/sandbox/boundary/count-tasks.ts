import { readdir, readFile } from "node:fs/promises";

/**
 * Processes and threads owned by `uid`, as RLIMIT_NPROC counts them (from /proc). Used only when
 * the sandbox shares the server's uid, where the process limit must sit on top of this count.
 */
export async function countTasksOf(uid: number): Promise<number> {
  let count = 0;
  const entries = await readdir("/proc").catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
        const owner = /^Uid:\s+(\d+)/m.exec(status)?.[1];
        const threads = /^Threads:\s+(\d+)/m.exec(status)?.[1];
        if (owner !== undefined && Number(owner) === uid) count += Number(threads ?? 1);
      }),
  );
  return count;
}
