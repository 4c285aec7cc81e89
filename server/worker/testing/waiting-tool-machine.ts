import {
  createAction,
  policyLedgerOn,
  PolicyRegistry,
  runPolicy,
  textStep,
  ToolsPendingError,
  type Generator,
  type JsonObject,
  type MachineStep,
  type WaitingToolKind,
  type WorkflowMachine,
} from "../../engine";
import { validateWorkflowDocument, type WorkflowDefinition } from "../../workflows/definition";
import { compileWorkflow } from "../../workflows/compile";

/**
 * A one-step workflow whose generator is a policy (002: heuristic code is a policy like a model)
 * that calls one waiting tool and writes its result as the artifact, `{"answer": <result>}`, which
 * the json_schema guard accepts. The sub-workflow answers without any tool.
 */
export const PARENT_YAML = `
name: ask-then-write
specification: Write what the tool answered
state_machine:
  states: [writing, done]
  initial_state: writing
  final_states: [done]
  transitions: [{ from: writing, to: done, condition: g }]
steps:
  - { name: write, in_state: writing, guard_id: g, prompt: "Write", guards: [{ kind: json_schema, schema: { type: object, required: [answer] } }] }
`;
export const CHILD_YAML = PARENT_YAML.replace("name: ask-then-write", "name: child-flow");

export function definitionOf(yaml: string): WorkflowDefinition {
  const validated = validateWorkflowDocument(yaml, "waiting.yaml");
  if (!validated.ok) throw new Error(validated.problems.map((problem) => problem.message).join("\n"));
  return validated.definition;
}

export interface WaitingToolPlan {
  readonly kind: WaitingToolKind;
  readonly deadlineAfterMs: number;
  /** How many times the tool's run was entered (it must never run once its result is recorded). */
  readonly entered: { count: number };
}

/** The generator: `script` calls `ask`, a leaf that waits until its result is reported. */
function askingGenerator(plan: WaitingToolPlan): Generator {
  const registry = new PolicyRegistry();
  registry.register({
    name: "ask",
    description: "Ask and wait",
    inputSchema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
    run: async (input, ctx) => {
      plan.entered.count++;
      const key = ctx.identity?.key;
      if (!key) throw new Error("a waiting tool needs its call's identity");
      throw new ToolsPendingError([
        {
          key,
          tool: "ask",
          kind: plan.kind,
          stepName: "write",
          attempt: 1,
          input,
          deadlineAfterMs: plan.deadlineAfterMs,
          ...(plan.kind === "workflow" ? { workflow: "child-flow", specification: String(input.question) } : { question: String(input.question) }),
        },
      ]);
    },
  });
  registry.register({
    name: "script",
    description: "Asks, then writes the answer",
    inputSchema: { type: "object" },
    actions: ["ask"],
    policy: async (_action, ctx) => {
      const steps = await ctx.call(createAction("ask", { question: "What should it say?" }));
      const result = steps.find((step) => step.type === "action_result");
      return [textStep("script", JSON.stringify({ answer: (result?.payload ?? null) as JsonObject }))];
    },
  });
  return {
    async generate(request) {
      const run = await runPolicy("script", {}, { registry, env: undefined, ledger: policyLedgerOn(request.calls, request.callKey), actions: ["ask"], signal: request.signal });
      const text = run.steps.find((step) => step.type === "text");
      return { content: String(text?.payload.text ?? "") };
    },
  };
}

const answeringGenerator: Generator = { generate: async () => ({ content: JSON.stringify({ answer: "from the sub-run" }) }) };

/** machineFor: the stored definition compiled, its action pair's generator swapped for the ones above. */
export function waitingMachineFor(plan: WaitingToolPlan): (definition: WorkflowDefinition) => WorkflowMachine {
  const asking = askingGenerator(plan);
  return (definition) => {
    const machine = compileWorkflow(definition, { endpoint: { baseURL: "http://127.0.0.1:9/v1", apiKey: "unused", model: "unused" } });
    const generator = definition.name === "child-flow" ? answeringGenerator : asking;
    return {
      ...machine,
      steps: machine.steps.map((step): MachineStep => {
        if (step.kind !== "action_pair") return step;
        const { draftGuard: _draftGuard, ...rest } = step;
        return { ...rest, actionPair: { ...step.actionPair, generator } };
      }),
    };
  };
}
