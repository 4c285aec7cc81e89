import { access, constants } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";

/** How to get the boundary on a Debian or Ubuntu machine; every `unavailable` message ends with it. */
export const INSTALL_HINT = "install it with: apt-get install bubblewrap";

export type BoundaryTools =
  | { readonly ok: true; readonly bwrap: string; readonly prlimit: string; readonly bash: string }
  | { readonly ok: false; readonly message: string };

// Looked up on the host's PATH, then where Debian puts them (a server may run with a short PATH).
const STANDARD_DIRECTORIES = ["/usr/bin", "/bin", "/usr/local/bin"];

let located: Promise<BoundaryTools> | undefined;

/**
 * The programs the boundary runs: bwrap (bubblewrap: the namespaces, mounts and seccomp),
 * prlimit (util-linux: the resource limits, set before bwrap starts so nothing inside can raise
 * them) and bash (closes descriptors the server inherited, which would otherwise pass into the
 * sandbox). Found once per process; a missing one is retried on the next call, so installing
 * bubblewrap takes effect without a restart.
 */
export function locateBoundaryTools(): Promise<BoundaryTools> {
  located ??= locate();
  const current = located;
  void current.then((tools) => {
    if (!tools.ok && located === current) located = undefined;
  });
  return current;
}

function locate(): Promise<BoundaryTools> {
  const onPath = (process.env.PATH ?? "").split(delimiter).filter(isAbsolute);
  return findBoundaryTools([...onPath, ...STANDARD_DIRECTORIES]);
}

/** The tools in these directories (the first match of each), or what is missing and how to install it. */
export async function findBoundaryTools(directories: readonly string[], platform: NodeJS.Platform = process.platform): Promise<BoundaryTools> {
  if (platform !== "linux") return { ok: false, message: `the sandbox for Python needs Linux namespaces (bubblewrap); this is ${platform}` };
  const find = (name: string) => findExecutable(name, directories);
  const [bwrap, prlimit, bash] = await Promise.all([find("bwrap"), find("prlimit"), find("bash")]);
  if (!bwrap) return { ok: false, message: `bubblewrap (bwrap) is not installed, so untrusted Python cannot be run in isolation; ${INSTALL_HINT}` };
  if (!prlimit) return { ok: false, message: "prlimit (util-linux) is not installed; the sandbox needs it to set resource limits: apt-get install util-linux" };
  if (!bash) return { ok: false, message: "bash is not installed; the sandbox needs it to close inherited descriptors" };
  return { ok: true, bwrap, prlimit, bash };
}

async function findExecutable(name: string, directories: readonly string[]): Promise<string | null> {
  for (const directory of directories) {
    const candidate = join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
