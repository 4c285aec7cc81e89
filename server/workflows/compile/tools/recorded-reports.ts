import { Ajv } from "ajv";
import { linearRegExp } from "../../../guards/json-schema/linear-regexp.mjs";
import { GeneratorSpecError } from "../../../generators/generator-spec";
import type { Cassette } from "../../../generators/replay/cassette";
import type { ToolDeclaration } from "../../definition/tools/tool-types";

/** Schema problems listed per recorded report, at most. */
const MAX_LISTED = 5;

/**
 * Checks a replayed run's recorded reports for the waiting tools a step lists, as a live report is
 * checked before it is recorded: a person's answer against the tool's `answer_schema`, an outside
 * system's result against its `result_schema` (when it has one). A recorded report for a workflow
 * tool is refused: the sub-run always runs (from the same cassette).
 * @throws GeneratorSpecError naming the cassette path, the tool and each problem.
 */
export function checkRecordedReports(cassette: Cassette, declarations: Readonly<Record<string, ToolDeclaration>> | undefined, names: readonly string[], where: string): void {
  if (!cassette.reports || !declarations) return;
  for (const name of names) {
    const declaration = Object.hasOwn(declarations, name) ? declarations[name] : undefined;
    const results = Object.hasOwn(cassette.reports, name) ? cassette.reports[name] : undefined;
    if (!declaration || !results) continue;
    const at = `${where}: the cassette's reports.${name}`;
    if (declaration.kind === "workflow") throw new GeneratorSpecError(`${at}: "${name}" is a workflow tool, which always starts its sub-run (the sub-run replays from the same cassette): remove its reports`);
    if (declaration.kind === "code") throw new GeneratorSpecError(`${at}: "${name}" is a code tool, which runs in a replay too: remove its reports`);
    const schema = declaration.kind === "person" ? declaration.answer_schema : declaration.result_schema;
    if (!schema) continue;
    const validate = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } }).compile(schema);
    results.forEach((result, index) => {
      if (validate(result)) return;
      const problems = (validate.errors ?? []).slice(0, MAX_LISTED).map((error) => `${error.instancePath || "the result"} ${error.message ?? "is invalid"}`);
      const form = declaration.kind === "person" ? "answer_schema" : "result_schema";
      throw new GeneratorSpecError(`${at}[${index}]: does not match the ${form} of tool "${name}": ${problems.join("; ")}`);
    });
  }
}
