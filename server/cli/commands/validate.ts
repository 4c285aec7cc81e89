import { validateWorkflowDocument, workflowNameFromFile } from "../../workflows/definition";
import { EXIT, type CliIo } from "../io";
import { parseCommandLine } from "../parse-options";
import { readBoundedText } from "../read-bounded-text";
import { UsageError } from "../usage-error";
import { validationOutput } from "./validation-output";

/**
 * `dualstate validate <file> [--json]`: exit 0 and a one-line summary when the workflow is valid,
 * exit 1 and one `path (line L, column C): message` line per problem when not; warnings follow as
 * `warning: ...` lines and never change the status. Exit 2 when the file cannot be read (the
 * command line named something that is not there).
 */
export function validateCommand(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommandLine(args, { json: { type: "boolean" } }, "validate");
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError("dualstate validate: expected <file>");
  if (extra.length > 0) throw new UsageError(`dualstate validate: unexpected argument "${extra[0]}"`);

  let text: string;
  try {
    text = readBoundedText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.err(`dualstate validate: cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EFBIG" ? (error as Error).message : (code ?? "unreadable")}`);
    return EXIT.usage;
  }

  const output = validationOutput(validateWorkflowDocument(text, file, { fallbackName: workflowNameFromFile(file) }), values.json === true);
  if (output.out !== "") io.out(output.out);
  if (output.err !== "") io.err(output.err);
  return output.code;
}
