import { BUILTIN_TOOLS } from "../../../generators/agent/builtin-tools";
import type { Problems } from "../problems";
import { present, type CheckableWorkflow, type Knowledge } from "../salvage";
import { nearestName } from "../seed-format/nearest-name";
import { TOOL_NAME } from "./tool-schema";

/**
 * Names an agent already has: the built-in tools, and the registry's own policies (the model
 * turn and the assistant loop), which a declared tool would collide with when registered.
 */
export const RESERVED_TOOL_NAMES: readonly string[] = [...BUILTIN_TOOLS.map((tool) => tool.name), "model", "assistant"];

const quoted = (names: readonly string[]) => names.slice(0, 8).map((name) => `"${name}"`).join(", ") + (names.length > 8 ? ", …" : "");

/**
 * The `tools:` block against the rest of the workflow: each name follows the registry's rule and
 * is not one an agent already has; a workflow tool does not start its own workflow; each agent
 * step lists declared tools, once. A declared tool no step lists is a warning (no model can call it).
 */
export function checkTools(raw: CheckableWorkflow, known: Knowledge, problems: Problems): void {
  const tools = raw.tools ?? {};
  const declared = Object.keys(tools);
  for (const name of declared) {
    if (!TOOL_NAME.test(name)) problems.add(["tools", name], `${JSON.stringify(name.slice(0, 80))} is not a tool name: 1 to 64 of A-Z a-z 0-9 _ - (a model calls a tool by it)`);
    else if (RESERVED_TOOL_NAMES.includes(name)) problems.add(["tools", name], `"${name}" is a built-in name of the agent (${quoted(RESERVED_TOOL_NAMES)}): choose another`);
    const tool = tools[name];
    if (tool?.kind === "workflow" && raw.name !== undefined && tool.workflow === raw.name) {
      problems.add(["tools", name, "workflow"], `"${tool.workflow}" is this workflow itself: a tool cannot start a run of its own workflow (it would recurse without end)`);
    }
  }

  const used = new Set<string>();
  for (const [step, i] of present(raw.steps)) {
    const generator = step.generator;
    if (generator?.kind !== "agent" || !generator.tools) continue;
    const listed = new Set<string>();
    generator.tools.forEach((name, j) => {
      used.add(name);
      if (listed.has(name)) problems.add(["steps", i, "generator", "tools", j], `"${name}" is listed twice`);
      else if (!Object.hasOwn(tools, name) && known.tools) problems.add(["steps", i, "generator", "tools", j], unknownTool(name, declared));
      listed.add(name);
    });
  }
  // A step that did not parse whole may list a tool in a generator that was lost.
  if (known.partialSteps.size > 0 || !known.stepNames) return;
  for (const name of declared) {
    if (!used.has(name)) problems.warn(["tools", name], `declared, but no agent step lists it in generator.tools: no model can call it`);
  }
}

function unknownTool(name: string, declared: readonly string[]): string {
  if (RESERVED_TOOL_NAMES.includes(name)) return `"${name}" is a built-in tool, which every agent has: list only tools declared in tools`;
  const hint = nearestName(name, declared);
  if (hint) return `"${name}" is not a tool declared in tools (did you mean "${hint}"?)`;
  return declared.length > 0 ? `"${name}" is not a tool declared in tools (declared: ${quoted(declared)})` : `"${name}" is not a tool declared in tools: this workflow declares none`;
}
