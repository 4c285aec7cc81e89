import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { ExportBudget } from "./export-limits";
import type { PlannedCommit } from "./provenance-commits";

const run = promisify(execFile);

export class GitUnavailableError extends Error {
  override readonly name = "GitUnavailableError";
}

// The repository must not depend on whoever runs the server: no global or system config (a
// signing hook or a template there would change or break the commits), and a fixed identity.
// The rest of the environment is inherited (PATH finds git).
const ISOLATED_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0" };

// Nothing these commands print is large: the repository's content goes through files.
const MAX_GIT_OUTPUT = 1024 * 1024;

/** Runs git; the budget's signal kills it (the caller left, or the time limit ran out). */
async function git(budget: ExportBudget, cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  budget.check();
  try {
    const { stdout } = await run("git", args, { cwd, env: { ...process.env, ...ISOLATED_ENV, ...env }, maxBuffer: MAX_GIT_OUTPUT, signal: budget.signal, killSignal: "SIGKILL" });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new GitUnavailableError("the git command is not installed on the server (it is needed to export provenance as a git repository)");
    if (budget.signal.aborted) throw budget.stopReason();
    throw error;
  }
}

/** An email-shaped identity for a commit's author: git requires one. */
const identity = (name: string) => ({ name: name.replace(/[<>\n]/g, " ").trim() || "unknown", email: name.includes("@") ? name.replace(/[<>\s]/g, "") : "dualstate@localhost" });

/**
 * Creates a git repository in `folder` (which must be empty or missing) with one commit per planned
 * commit, dated as planned, on branch `main`.
 * @throws GitUnavailableError when there is no git binary.
 */
export async function writeGitRepository(folder: string, commits: readonly PlannedCommit[], budget: ExportBudget): Promise<void> {
  mkdirSync(folder, { recursive: true });
  await git(budget, folder, ["init", "--quiet", "--initial-branch=main"]);
  for (const commit of commits) {
    budget.check();
    for (const [path, content] of Object.entries(commit.files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), content);
    }
    if (Object.keys(commit.files).length > 0) await git(budget, folder, ["add", "--", ...Object.keys(commit.files)]);
    const author = identity(commit.author);
    const date = commit.at.toISOString();
    // --cleanup=verbatim keeps the message as written (a feedback line starting with # included).
    await git(budget, folder, ["commit", "--quiet", "--allow-empty", "--no-verify", "--no-gpg-sign", "--cleanup=verbatim", "-m", commit.message], {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: "dualstate",
      GIT_COMMITTER_EMAIL: "dualstate@localhost",
      GIT_COMMITTER_DATE: date,
    });
  }
}

/** The repository in `folder` as a single-file git bundle (`git clone run.bundle` reads it back). */
export async function bundleGitRepository(folder: string, file: string, budget: ExportBudget): Promise<void> {
  await git(budget, folder, ["bundle", "create", "--quiet", file, "--all"]);
}
