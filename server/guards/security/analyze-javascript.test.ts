import { describe, expect, it } from "vitest";
import { analyzeJavaScript } from "./analyze-javascript";
import { UNPARSEABLE } from "./finding";

const constructs = (code: string, language: "javascript" | "typescript" = "javascript") => analyzeJavaScript(code, { language }).map((finding) => `${finding.construct}@${finding.line}`);

describe("analyzeJavaScript", () => {
  it.each([
    ["module.require", 'module.require("child_process");', ["module.require@1"]],
    ["process.mainModule", 'process.mainModule.require("fs");', ["process.mainModule@1"]],
    ["process.getBuiltinModule", 'process.getBuiltinModule("fs").readFileSync("x");', ['require("fs")@1', "process.getBuiltinModule@1", "fs.readFileSync@1"]],
    ["Bun's import.meta.require", 'import.meta.require("fs");', ['require("fs")@1', "import.meta.require@1"]],
    ["export * from a forbidden module", 'export * from "fs";', ['import "fs"@1']],
    ["import x = require() in TypeScript", 'import cp = require("child_process");', ['require("child_process")@1']],
    ["an alias of the global object", "const g = globalThis;\ng.process.exit();", ["process.exit@2"]],
    ["destructuring from the global object", "const { process: p } = globalThis;\np.exit();", ["process.exit@2"]],
    ["an alias of process", "const p = process;\np.kill(1);", ["process.kill@2"]],
    ["the global object passed on", 'Object.getOwnPropertyDescriptor(globalThis, "process");', ["globalThis@1"]],
    ["process spread into an object", "const copy = { ...process };", ["process@1"]],
    ["a rest element from process", "const { argv, ...rest } = process;", ["...process@1"]],
    ["optional chaining", 'eval?.("x");\nprocess?.env;', ["eval@1", "process.env@2"]],
    ["Function subclassed", 'new (class extends Function {})("x");', ["Function@1"]],
    ["Function as a tag", "Function`return process```;", ["Function@1"]],
    ["setTimeout as a tag", "setTimeout`alert(1)`;", ["setTimeout(string)@1"]],
    ["Reflect.construct(Function)", 'Reflect.construct(Function, ["x"]);', ["Function@1"]],
    ["Function.call", 'Function.call(null, "x");', ["Function.call@1"]],
    ["an alias of Function", 'const F = Function;\nF("x");', ["Function()@2"]],
    ["a method's constructor", '"".toString.constructor("return this")();', ['"".toString.constructor()@1']],
    ["AsyncFunction through getPrototypeOf", 'Object.getPrototypeOf(async () => {}).constructor("x");', [/^Object\.getPrototypeOf\(async/]],
    ["constructor chain through an alias", 'const C = [].constructor;\nC.constructor("x")();', ["C.constructor@2"]],
    ["constructor of a function declaration", 'function f() {}\nf.constructor("x")();', ["f.constructor@2"]],
    ["this.constructor.constructor in a class", 'class A { m() { return this.constructor.constructor("x")(); } }', ["this.constructor.constructor@1"]],
    ["Error.prepareStackTrace", "Error.prepareStackTrace = (error, frames) => frames;", ["assignment to Error.prepareStackTrace@1"]],
    ["JSON.parse replaced", "JSON.parse = () => ({});", ["assignment to JSON.parse@1"]],
    ["a computed key on a built-in prototype", "Object.prototype[key] = value;", ["assignment to Object.prototype[<computed>]@1"]],
    ["constructor.prototype written", "obj.constructor.prototype.isAdmin = true;", ["assignment to prototype.isAdmin@1"]],
    ["getPrototypeOf written", "const proto = Object.getPrototypeOf({});\nproto.x = 1;", ["assignment to prototype.x@2"]],
    ["delete from a prototype", "delete Array.prototype.map;", ["assignment to Array.prototype.map@1"]],
    ["Object.assign onto a prototype", "Object.assign(Array.prototype, { x: 1 });", ["Object.assign(Array.prototype)@1"]],
    ["__defineGetter__ on a prototype", 'Object.prototype.__defineGetter__("x", () => 1);', ["Object.prototype.__defineGetter__@1"]],
    ["__proto__ assembled from pieces", 'const k = "__pro" + "to__";\nobj[k].x = 1;', ["assignment to prototype.x@2", "__proto__@2"]],
    ["a key reversed with split/reverse/join", 'globalThis["ssecorp".split("").reverse().join("")].exit();', ["process.exit@1"]],
    ["a key from char codes mapped", 'globalThis[[112, 114, 111, 99, 101, 115, 115].map((c) => String.fromCharCode(c)).join("")].env;', ["process.env@1"]],
    ["Reflect.get of the global object", 'Reflect.get(globalThis, "process").exit();', ["process.exit@1", "globalThis@1"]],
    ["assignments do not declare a global away", "process.x = 1;\nprocess.exit(0);", ["process.exit@2"]],
    ["a type named like a global does not shadow it", "interface process { x: 1 }\nprocess.exit(1);", ["process.exit@2"]],
    ["require.main used as a module", 'const m = require.main;\nm.require("fs");', ["require.main@1"]],
  ] as const)("finds %s", (_name, code, expected) => {
    const found = constructs(code, code.includes("interface") || code.includes("import cp =") ? "typescript" : "javascript");
    expect(found).toHaveLength(expected.length);
    expected.forEach((construct) => (typeof construct === "string" ? expect(found).toContain(construct) : expect(found.some((item) => construct.test(item))).toBe(true)));
  });

  it.each([
    ["shadowing by a local variable", "var process = { env: 1 };\nprocess.env;"],
    ["shadowing by a catch parameter", "try {} catch (process) { process.exit(); }"],
    ["shadowing by a reassigned let", "let fetch;\nfetch = () => 1;\nfetch();"],
    ["properties named like capabilities", "const o = { eval: 1, fetch() {} };\no.eval;\no.fetch();"],
    ["a TypeScript enum member", "enum E { process, env }\nconst z = E.process;"],
    ["a TypeScript namespace", "namespace N { export const process = 1; }\nN.process;"],
    ["harmless modules", 'const a = require("lodash");\nconst b = require("./x");\nrequire.resolve("y");\nimport("./lazy");'],
    ["feature detection", 'if (typeof fetch === "function" && typeof process !== "undefined") {}'],
    ["replacing a global with a test double", "globalThis.fetch = async () => ({ ok: true });"],
    ["the require.main idiom", "if (require.main === module) { main(); }"],
    ["self as a local name", "function f() { const self = this; return self.x; }"],
    ["reading prototypes", "Array.prototype.slice.call(arguments);\nFunction.prototype.toString.call(f);\nObject.getPrototypeOf(x) === Foo.prototype;"],
    ["constructor inspected, not called", "x.y.constructor.name;\nx.y.constructor === Function;\nObject.getPrototypeOf(o).constructor.name;"],
    ["an instanceof check against Function", "x instanceof Function;"],
  ])("passes %s", (_name, code) => {
    expect(constructs(code, /enum|namespace/.test(code) ? "typescript" : "javascript")).toEqual([]);
  });

  it("reports an unparseable source as one UNPARSEABLE finding, without running the rules", () => {
    expect(analyzeJavaScript('eval("x");\nlet = ;\n')).toEqual([expect.objectContaining({ rule: UNPARSEABLE, line: 2 })]);
  });

  it("gives 1-based lines and columns", () => {
    expect(analyzeJavaScript("const a = 1;\n  fetch(a);\n")).toEqual([expect.objectContaining({ construct: "fetch", line: 2, column: 3, rule: "network" })]);
  });
});
