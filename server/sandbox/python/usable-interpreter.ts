import { readFileSync } from "node:fs";
import { INSTALL_HINT, locateBoundaryTools } from "../boundary/boundary-tools";
import { launchSandbox } from "../boundary/launch-sandbox";
import { rememberSuccess } from "./remember-success";
import { sandboxInterpreter, type SandboxInterpreter } from "./sandbox-interpreter";
import { pythonProcessLimits, pythonSandboxProfile, type RunnerFiles } from "./sandbox-profile";

export type UsableInterpreter = { readonly ok: true; readonly interpreter: SandboxInterpreter } | { readonly ok: false; readonly message: string };

/**
 * Interpreters tried when none is configured, in order. python3 on PATH first; when the sandbox's
 * user cannot read it (pyenv under /root, mode 0700, when the server runs as root), a system-wide
 * one: the same isolation, only another interpreter.
 */
const DEFAULT_CANDIDATES = ["python3", "/usr/bin/python3", "/usr/local/bin/python3"];
const SMOKE_TIMEOUT_MS = 15_000;
const SMOKE_MARK = "dualstate-sandbox-ok";
const MAX_REASON = 300;

/**
 * The interpreter the Python sandbox runs, checked once by starting it inside the boundary: a
 * missing bwrap, user namespaces switched off, or an interpreter the sandbox cannot read each
 * make the sandbox `unavailable` with the reason and how to fix it; there is no weaker mode to
 * fall back to. A failed check is repeated on the next run.
 */
export function usableInterpreter(configured: string | undefined): Promise<UsableInterpreter> {
  return checkOnce(configured ?? "");
}

// The empty key stands for "not configured": try the default candidates in order.
const checkOnce = rememberSuccess((configured) => firstUsable(configured === "" ? DEFAULT_CANDIDATES : [configured]));

async function firstUsable(candidates: readonly string[]): Promise<UsableInterpreter> {
  const tools = await locateBoundaryTools();
  if (!tools.ok) return tools;
  const problems: string[] = [];
  for (const command of candidates) {
    const found = await sandboxInterpreter(command);
    if (!found.ok) {
      problems.push(`${command}: ${found.message}`);
      continue;
    }
    const smoke = await smokeTest(found.interpreter);
    if (smoke === null) return found;
    problems.push(`${found.interpreter.executable}: ${smoke}`);
  }
  return {
    ok: false,
    message:
      `the Python sandbox (bubblewrap) cannot start python3: ${problems.join("; ")}. ` +
      `The sandbox's user must be able to read the interpreter (a pyenv under /root is not readable to it: install python3 system-wide, apt-get install python3); ` +
      `bubblewrap must be able to create user namespaces (${INSTALL_HINT})`,
  };
}

/** null when a trivial program runs inside the boundary, or what went wrong. */
async function smokeTest(interpreter: SandboxInterpreter): Promise<string | null> {
  const launched = await launchSandbox({
    profile: pythonSandboxProfile(interpreter, {}, ["-c", `print(${JSON.stringify(SMOKE_MARK)})`]),
    limits: pythonProcessLimits({ cpuMs: 5_000, memoryMb: 64 }),
    extraPipes: 0,
  });
  if (!launched.ok) return launched.message;
  const { child } = launched;
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout = (stdout + chunk.toString("utf8")).slice(0, 4096)));
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(0, 4096)));
  const timer = setTimeout(launched.kill, SMOKE_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => {
    child.once("close", (exitCode) => resolve(exitCode));
    child.once("error", () => resolve(null));
  });
  clearTimeout(timer);
  if (code === 0 && stdout.includes(SMOKE_MARK)) return null;
  const reason = stderr.trim().split("\n")[0]?.slice(0, MAX_REASON) || `exit status ${code ?? "unknown"}`;
  return reason;
}

let runnerFiles: RunnerFiles | undefined;

/** The runner's three files, read once; copied into every sandbox read-only. */
export function pythonRunnerFiles(): RunnerFiles {
  // Literal URLs, so that bundlers see (and copy) each file.
  runnerFiles ??= {
    "runner.py": readFileSync(new URL("./runner.py", import.meta.url)),
    "sandbox_policy.py": readFileSync(new URL("./sandbox_policy.py", import.meta.url)),
    "run_session.py": readFileSync(new URL("./run_session.py", import.meta.url)),
  };
  return runnerFiles;
}
