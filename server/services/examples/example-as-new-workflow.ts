import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseDocument } from "yaml";
import { invalidInput } from "../errors";
import { examplesFolder, readExamples } from "./load-examples";

export interface ExampleSummary {
  readonly name: string;
  readonly description: string;
}

/** The bundled examples a new workflow can start from, in name order. */
export function listExamples(folder: string = examplesFolder()): ExampleSummary[] {
  return readExamples(folder).map((example) => ({ name: example.definition.name, description: example.definition.description ?? "" }));
}

/**
 * A bundled example's document renamed to `name`, for a new workflow to start from. The text is
 * edited in place (only `name:` changes), so the example's comments, which explain it, are kept.
 * @throws ServiceError INVALID_INPUT on `example` when no bundled example has that name.
 */
export function exampleAsNewWorkflow(example: string, name: string, folder: string = examplesFolder()): string {
  const found = readExamples(folder).find((candidate) => candidate.definition.name === example);
  if (!found) throw invalidInput("example", `no bundled example is named "${example}" (examples: ${listExamples(folder).map((entry) => entry.name).join(", ")})`);
  const document = parseDocument(readFileSync(found.file, "utf8"));
  // Examples are written either under `workflow:` (agent.yaml style) or at the root.
  const path = document.hasIn(["workflow", "name"]) ? ["workflow", "name"] : ["name"];
  document.setIn(path, name);
  return `# Started from the example ${basename(found.file)}.\n${document.toString({ lineWidth: 0 })}`;
}
