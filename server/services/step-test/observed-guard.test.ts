import { describe, expect, it } from "vitest";
import { createArtifact, type ActionPairMachineStep } from "@/server/engine";
import { compileWorkflow } from "@/server/workflows/compile";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { verdictOf } from "./attempt-reports";
import { observedStepGuard, type GuardObservation } from "./observed-guard";
import { ADDER_DOCUMENT, ADDER_TESTS, CORRECT_ADD, SHELLING_ADD, WRONG_ADD } from "./testing/adder-workflow";

describe("observedStepGuard", () => {
  const validated = validateWorkflowDocument(ADDER_DOCUMENT);
  if (!validated.ok) throw new Error("the adder workflow is valid");
  const definition = validated.definition;
  const step = definition.steps[1]!;
  const compiled = compileWorkflow(definition, { endpoint: { model: "m" } }).steps[1] as ActionPairMachineStep;
  const dependencies = { test: createArtifact({ id: "t", content: ADDER_TESTS, version: 1, parentId: null }) };

  // Which listed guards answer: all three, up to the failing one, or none for empty content (refused before any guard).
  const cases = [
    ["passing", CORRECT_ADD, ["pass", "pass", "pass"]],
    ["failing", WRONG_ADD, ["pass", "pass", "fail"]],
    ["fatal", SHELLING_ADD, ["pass", "fatal"]],
    ["empty", " ", []],
  ] as const;
  for (const [name, content, verdicts] of cases) {
    it(`gives the step's verdict a run gives (${name} artifact), and each listed guard's on the way`, async () => {
      const observations: GuardObservation[] = [];
      const observed = observedStepGuard(step.guards ?? [], { language: "javascript" }, "steps[1].guards", (observation) => observations.push(observation));
      const artifact = createArtifact({ id: "a", content, version: 1, parentId: null });

      const [ours, theirs] = await Promise.all([observed.validate(artifact, dependencies), compiled.actionPair.guard.validate(artifact, dependencies)]);

      expect({ passed: ours.passed, fatal: ours.fatal, feedback: ours.feedback.replace(/\d+(\.\d+)? ?ms/g, "") }).toEqual({ passed: theirs.passed, fatal: theirs.fatal, feedback: theirs.feedback.replace(/\d+(\.\d+)? ?ms/g, "") });
      expect(observations.map((observation) => verdictOf(observation.result))).toEqual(verdicts);
      expect(observations.map((observation) => observation.index)).toEqual(verdicts.map((_, index) => index));
    });
  }
});
