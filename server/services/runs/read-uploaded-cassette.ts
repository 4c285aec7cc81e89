import { GeneratorSpecError } from "@/server/generators/generator-spec";
import { parseCassetteText, type Cassette } from "@/server/generators/replay/cassette";
import { checkRecordedReports } from "@/server/workflows/compile/tools/recorded-reports";
import type { WorkflowDefinition } from "@/server/workflows/definition";
import { invalidInput } from "../errors";

/**
 * A replay cassette the user gave as JSON text (a file chosen in the Run dialog): valid JSON, the
 * cassette format, and recorded answers only for steps the workflow has (or the workflows its
 * tools start, `subWorkflowSteps`: their sub-runs replay from the same cassette), so a typo in a
 * step name is reported before the run starts rather than as an exhausted cassette halfway through;
 * its recorded reports match the forms of the tools they answer (recorded-reports.ts).
 * @throws ServiceError INVALID_INPUT on field `cassette`, naming the line, the field or the step.
 */
export function readUploadedCassette(text: string, definition: Pick<WorkflowDefinition, "name" | "steps" | "tools">, subWorkflowSteps: readonly string[] = []): Cassette {
  let cassette: Cassette;
  try {
    cassette = parseCassetteText(text, "the cassette file");
  } catch (error) {
    // By name, not instanceof (errors across bundles; see the style guide).
    if (error instanceof Error && error.name === "CassetteError") throw invalidInput("cassette", error.message);
    throw error;
  }
  const known = definition.steps.map((step) => step.name);
  const unknown = Object.keys(cassette.steps).filter((step) => !known.includes(step) && !subWorkflowSteps.includes(step));
  if (unknown.length > 0) {
    const lines = unknown.map((step) => `steps.${step}: workflow "${definition.name}" has no step "${step}"`);
    const theirs = subWorkflowSteps.length > 0 ? `; its sub-workflows' steps: ${subWorkflowSteps.join(", ")}` : "";
    throw invalidInput("cassette", `${lines.join("\n")}\n(its steps: ${known.join(", ") || "none"}${theirs})`);
  }
  // Recorded reports are checked against the tools' forms now, as `dualstate run` does when it compiles.
  definition.steps.forEach((step, index) => {
    if (step.generator?.kind !== "agent") return;
    try {
      checkRecordedReports(cassette, definition.tools, step.generator.tools ?? [], `steps[${index}].generator`);
    } catch (error) {
      if (error instanceof GeneratorSpecError) throw invalidInput("cassette", error.message);
      throw error;
    }
  });
  return cassette;
}
