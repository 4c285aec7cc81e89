import type { ToolDefinition } from "../../../generators/agent/tool-registry";
import { GeneratorSpecError } from "../../../generators/generator-spec";
import type { ToolDeclaration } from "../../definition/tools/tool-types";
import { codeTool } from "./code-tool";
import { waitingTool } from "./waiting-tool";

/**
 * The agent tools of the declarations a step lists, in its order.
 * @throws GeneratorSpecError for a name not declared (a definition that bypassed validation).
 */
export function declaredTools(
  declarations: Readonly<Record<string, ToolDeclaration>> | undefined,
  names: readonly string[],
  options: { readonly pythonExecutable?: string; readonly where: string },
): ToolDefinition[] {
  return names.map((name, index) => {
    const declaration = declarations && Object.hasOwn(declarations, name) ? declarations[name] : undefined;
    if (!declaration) throw new GeneratorSpecError(`${options.where}.tools[${index}]: "${name}" is not a tool declared in tools`);
    return declaration.kind === "code" ? codeTool(name, declaration, options) : waitingTool(name, declaration);
  });
}
