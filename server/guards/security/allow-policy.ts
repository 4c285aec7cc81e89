/**
 * What a guard's configuration lets through. Both lists hold dotted names:
 * - allowModules: a module name ("fs", "subprocess", "urllib.request"; a "node:" prefix is ignored).
 *   It allows importing the module, its submodules ("fs" covers "fs/promises", "os" covers "os.path")
 *   and every use of what was imported from it.
 * - allowCalls: a construct name as the feedback shows it ("open", "os.system", "process.env",
 *   "fetch", "eval", "fs.readFileSync"). It allows that name and everything under it
 *   ("process.env" also covers "process.env.HOME"). Naming a member of a module that is forbidden as
 *   a whole ("subprocess.run") also lets its import through, while its other members stay forbidden.
 */
export interface AllowOptions {
  allowModules?: readonly string[];
  allowCalls?: readonly string[];
}

export interface AllowPolicy {
  /** The module, or a module it is a submodule of, is in allowModules. */
  moduleAllowed(moduleName: string): boolean;
  /** The construct key, or one it is under, is in allowCalls. */
  callAllowed(key: string): boolean;
  /** Some allowCalls entry names the module or a member of it: importing it alone is not a finding. */
  memberOfModuleAllowed(moduleName: string): boolean;
}

export function normalizeModuleName(name: string): string {
  return name.trim().replace(/^node:/, "");
}

function isUnder(name: string, parent: string): boolean {
  return name === parent || name.startsWith(`${parent}.`) || name.startsWith(`${parent}/`);
}

export function createAllowPolicy(options: AllowOptions = {}): AllowPolicy {
  const modules = (options.allowModules ?? []).map(normalizeModuleName).filter(Boolean);
  const calls = (options.allowCalls ?? []).map((call) => call.trim()).filter(Boolean);
  return {
    moduleAllowed: (moduleName) => modules.some((allowed) => isUnder(normalizeModuleName(moduleName), allowed)),
    callAllowed: (key) => calls.some((allowed) => isUnder(key, allowed)),
    memberOfModuleAllowed: (moduleName) => calls.some((allowed) => isUnder(allowed, normalizeModuleName(moduleName))),
  };
}
