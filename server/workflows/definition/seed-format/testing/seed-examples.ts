/**
 * The seeds' own examples, taken from the specification's text as it is written (docs/seeds/, a
 * byte-for-byte copy of ../shared/seeds that seed-copy.test.ts keeps honest), never retyped.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const SEEDS_FOLDER = fileURLToPath(new URL("../../../../../docs/seeds/", import.meta.url));

export function seedText(number: "001" | "004"): string {
  const file = readdirSync(SEEDS_FOLDER).find((name) => name.startsWith(`${number}_`));
  if (!file) throw new Error(`seed ${number} is not in ${SEEDS_FOLDER}`);
  return readFileSync(join(SEEDS_FOLDER, file), "utf8");
}

/** Every ```yaml block of a seed, in order, as written. */
export function yamlBlocks(text: string): string[] {
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/** 004's five YAML examples by what they show. */
export function seed004Examples(): { stateMachine: string; steps: string; codeStep: string; transitionStep: string; errorHandling: string } {
  const blocks = yamlBlocks(seedText("004"));
  if (blocks.length !== 5) throw new Error(`004 has ${blocks.length} YAML examples; these tests know five`);
  const [stateMachine, steps, codeStep, transitionStep, errorHandling] = blocks as [string, string, string, string, string];
  return { stateMachine, steps, codeStep, transitionStep, errorHandling };
}

/**
 * 004's agent.yaml as one document: its two `workflow:` fragments (the state machine and the
 * steps) merged, with the code step and the transition step examples added to the steps, all
 * parsed from the seed's own text.
 */
export function seed004AgentYaml(): { workflow: { state_machine: unknown; steps: unknown[] } } {
  const examples = seed004Examples();
  const machine = parse(examples.stateMachine) as { workflow: { state_machine: unknown } };
  const steps = parse(examples.steps) as { workflow: { steps: unknown[] } };
  const code = parse(examples.codeStep) as unknown[];
  const transition = parse(examples.transitionStep) as unknown[];
  return { workflow: { state_machine: machine.workflow.state_machine, steps: [...steps.workflow.steps, ...code, ...transition] } };
}

/** The fields of a Python dataclass or the parameters of a class's __init__, as 001 writes them. */
export function pythonFields(text: string, className: string): string[] {
  const start = text.search(new RegExp(`^class ${className}[(:]`, "m"));
  if (start < 0) throw new Error(`001 has no class ${className}`);
  const body = text.slice(start, text.indexOf("\nclass ", start + 1) === -1 ? undefined : text.indexOf("\nclass ", start + 1));
  const init = /def __init__\(\s*self,([\s\S]*?)\):/.exec(body);
  const source = init ? (init[1] as string) : body;
  const pattern = init ? /^\s*(\w+)\s*:/gm : /^ {4}(\w+)\s*:\s*[\w[\]'., ]+/gm;
  return [...source.matchAll(pattern)].map((match) => match[1] as string).filter((name) => name !== "self");
}

/** 001's guard library: the class names of its guards. */
export function guardClassNames(text: string): string[] {
  return [...text.matchAll(/^class (\w+Guard)\(GuardInterface\)/gm)].map((match) => match[1] as string);
}
