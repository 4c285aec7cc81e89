import { z } from "zod";
import { STEP_TEST_LIMITS as LIMITS } from "@/server/services/step-test/step-test-limits";

const name = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const atMost = (chars: number) => z.string().max(chars, `must be at most ${chars} characters`);

const generator = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("model") }),
    z.strictObject({ kind: z.literal("answer"), answer: atMost(LIMITS.answerChars) }),
    z.strictObject({ kind: z.literal("cassette"), cassette: name }),
  ],
  { error: 'must be { kind: "model" }, { kind: "answer", answer } or { kind: "cassette", cassette }' },
);

/** One step of the designer's draft, with its inputs; the service checks them against the draft. */
export const testStepInput = z.strictObject({
  document: atMost(LIMITS.documentChars),
  state: name,
  step: name,
  specification: atMost(LIMITS.specificationChars).optional(),
  variables: z
    .record(name, z.union([z.boolean(), z.number(), atMost(LIMITS.variableChars)], { error: "must be a boolean, number or text" }))
    .refine((values) => Object.keys(values).length <= LIMITS.variables, { message: `at most ${LIMITS.variables} variables` })
    .optional(),
  dependencies: z
    .record(name, atMost(LIMITS.dependencyChars))
    .refine((values) => Object.keys(values).length <= LIMITS.dependencies, { message: `at most ${LIMITS.dependencies} dependency artifacts` })
    .optional(),
  generator,
  retries: z.boolean().optional(),
});

/** The workflow whose earlier runs to look in, and the guard ids the step depends on. */
export const pinnableArtifactsInput = z.strictObject({
  workflow: name,
  guardIds: z.array(name).max(LIMITS.dependencies, `at most ${LIMITS.dependencies} guard ids`),
});
