import { readFileSync } from "node:fs";
import { formatProblem } from "../../workflows/document";
import { validateWorkflowDocument, workflowNameFromFile } from "../../workflows/definition";
import { EXIT, type CliIo } from "../io";
import { UsageError } from "../usage-error";

/**
 * `dualstate validate <file>`: exit 0 and a one-line summary when the workflow is valid, exit 1
 * and one `path (line L, column C): message` line per problem when not, exit 2 when the file
 * cannot be read (the command line named something that is not there).
 */
export function validateCommand(args: string[], io: CliIo): number {
  const [file, ...extra] = args;
  if (file === undefined) throw new UsageError("dualstate validate: expected <file>");
  if (file.startsWith("-")) throw new UsageError(`dualstate validate: unknown option "${file}"`);
  if (extra.length > 0) throw new UsageError(`dualstate validate: unexpected argument "${extra[0]}"`);

  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.err(`dualstate validate: cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (code ?? "unreadable")}`);
    return EXIT.usage;
  }

  const result = validateWorkflowDocument(text, file, { fallbackName: workflowNameFromFile(file) });
  if (!result.ok) {
    io.err(result.problems.map(formatProblem).join("\n"));
    return EXIT.failed;
  }
  const { name, state_machine, steps } = result.definition;
  const guards = steps.reduce((sum, step) => sum + (step.guards?.length ?? 0), 0);
  io.out(`${name}: valid (${count(state_machine.states.length, "state")}, ${count(steps.length, "step")}, ${count(guards, "guard")})`);
  return EXIT.ok;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
