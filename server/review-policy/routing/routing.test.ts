import { describe, expect, it } from "vitest";
import { DEFAULT_ESCALATION_POLICY } from "../escalation-policy";
import { guardKindsOfStep } from "./guard-kinds-of-step";
import { parseRoutingDocument } from "./parse-routing-document";
import { resolvePolicy } from "./resolve-policy";
import { ROUTING_LIMITS, type EscalationFacts, type RoutingDocument } from "./routing-document";

const GROUPS = ["security", "leads", "oncall", "data"];

const DOCUMENT = `rules:
  - name: auth code
    match: { workflow: payments, step: implement, guard: security, feedback: "(?i)sql" }
    group: security
    quorum: { approvals: 2, exclude_run_starter: true, rejections: 1 }
    deadline: { hours: 8, on_deadline: handoff, handoff_group: leads, handoff_hours: 4 }
    backup: { group: oncall, after_hours: 2 }
    channels: [email, slack]
  - name: any security verdict
    match: { guard: [security, llm_judge] }
    group: security
  - name: data steps
    match: { step: [load, transform] }
    group: data
    channels: []
  - name: shell in feedback
    match: { feedback: "os\\\\.system|subprocess" }
    deadline: { on_deadline: reject }
default:
  group: null
  deadline: { hours: 24 }
  channels: [email]
`;

function parsed(text: string): RoutingDocument {
  const result = parseRoutingDocument(text, { groups: GROUPS });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.document;
}

const facts = (overrides: Partial<EscalationFacts>): EscalationFacts => ({ workflow: "payments", step: "implement", guardKinds: ["security"], feedback: "", ...overrides });

describe("routing an escalation: the first matching rule wins", () => {
  const document = parsed(DOCUMENT);
  const cases: { name: string; facts: EscalationFacts; rule: string; group: string | null; approvals: number; hours: number | null; action: string; channels: string[] }[] = [
    { name: "every condition of the first rule holds", facts: facts({ feedback: "Security: raw SQL string built from input (line 3)" }), rule: "auth code", group: "security", approvals: 2, hours: 8, action: "handoff", channels: ["email", "slack"] },
    { name: "the feedback pattern's inline (?i) flag", facts: facts({ feedback: "uses Sql concatenation" }), rule: "auth code", group: "security", approvals: 2, hours: 8, action: "handoff", channels: ["email", "slack"] },
    { name: "another workflow falls to the next rule", facts: facts({ workflow: "billing", feedback: "sql" }), rule: "any security verdict", group: "security", approvals: 1, hours: 24, action: "fail", channels: ["email"] },
    { name: "feedback not matching the pattern", facts: facts({ feedback: "eval() forbidden" }), rule: "any security verdict", group: "security", approvals: 1, hours: 24, action: "fail", channels: ["email"] },
    { name: "any of a list of guard kinds (a judge)", facts: facts({ step: "review", guardKinds: ["syntax", "llm_judge"] }), rule: "any security verdict", group: "security", approvals: 1, hours: 24, action: "fail", channels: ["email"] },
    { name: "a step in a list, no guard kind matched", facts: facts({ step: "transform", guardKinds: ["syntax"] }), rule: "data steps", group: "data", approvals: 1, hours: 24, action: "fail", channels: [] },
    { name: "a pattern with an escaped dot", facts: facts({ step: "write", guardKinds: ["test"], feedback: "calls os.system" }), rule: "shell in feedback", group: null, approvals: 1, hours: 24, action: "reject", channels: ["email"] },
    { name: "the escaped dot is not any character", facts: facts({ step: "write", guardKinds: ["test"], feedback: "calls osXsystem" }), rule: "default", group: null, approvals: 1, hours: 24, action: "fail", channels: ["email"] },
    { name: "no workflow known (a deleted workflow) never matches a workflow condition", facts: facts({ workflow: null, guardKinds: [], feedback: "sql" }), rule: "default", group: null, approvals: 1, hours: 24, action: "fail", channels: ["email"] },
    { name: "names are matched exactly, not as prefixes", facts: facts({ step: "load_more", guardKinds: [] }), rule: "default", group: null, approvals: 1, hours: 24, action: "fail", channels: ["email"] },
  ];
  it.each(cases)("$name → $rule", (entry) => {
    const policy = resolvePolicy(document, entry.facts);
    expect({ rule: policy.rule, group: policy.group, approvals: policy.quorum.approvals, hours: policy.deadline.hours, action: policy.deadline.action, channels: [...policy.channels] }).toEqual({
      rule: entry.rule,
      group: entry.group,
      approvals: entry.approvals,
      hours: entry.hours,
      action: entry.action,
      channels: entry.channels,
    });
  });

  it("writes the whole policy of the matched rule", () => {
    expect(resolvePolicy(document, facts({ feedback: "SQL" }))).toEqual({
      group: "security",
      quorum: { approvals: 2, excludeRunStarter: true, rejections: 1 },
      deadline: { hours: 8, action: "handoff", handoffGroup: "leads", handoffHours: 4 },
      backup: { group: "oncall", afterHours: 2 },
      channels: ["email", "slack"],
      rule: "auth code",
    });
  });

  it("searches only a bounded prefix of the feedback", () => {
    const late = `${"x".repeat(20_000)} os.system`;
    expect(resolvePolicy(document, facts({ step: "write", guardKinds: [], feedback: late })).rule).toBe("default");
  });
});

describe("an empty document or none: today's behaviour", () => {
  it.each(["", "# nothing yet\n", "rules: []\n"])("%j routes everything to the default policy", (text) => {
    const policy = resolvePolicy(parsed(text), facts({}));
    expect({ ...policy, rule: null }).toEqual(DEFAULT_ESCALATION_POLICY);
  });
});

describe("validation: each problem names its field and line", () => {
  const cases: { name: string; text: string; path: string; line: number; message: RegExp }[] = [
    { name: "an unknown group", text: "rules:\n  - name: a\n    group: nobody\n", path: "rules[0].group", line: 3, message: /"nobody" is not a reviewer group/ },
    { name: "an unknown hand-off group", text: "default:\n  deadline: { on_deadline: handoff, handoff_group: ghosts, handoff_hours: 2 }\n", path: "default.deadline.handoff_group", line: 2, message: /"ghosts" is not a reviewer group/ },
    { name: "approval at the deadline", text: "rules:\n  - name: a\n    deadline:\n      on_deadline: approve\n", path: "rules[0].deadline.on_deadline", line: 4, message: /never "approve"/ },
    { name: "a hand-off without its group", text: "rules:\n  - name: a\n    deadline: { on_deadline: handoff, handoff_hours: 3 }\n", path: "rules[0].deadline.handoff_group", line: 3, message: /required with on_deadline: handoff/ },
    { name: "hand-off fields with another action", text: "rules:\n  - name: a\n    deadline: { on_deadline: fail, handoff_group: leads }\n", path: "rules[0].deadline.handoff_group", line: 3, message: /only goes with on_deadline: handoff/ },
    { name: "a backtracking pattern", text: "rules:\n  - name: a\n    match:\n      feedback: \"(a)\\\\1\"\n", path: "rules[0].match.feedback", line: 4, message: /RE2/ },
    { name: "a lookahead", text: "rules:\n  - name: a\n    match: { feedback: \"(?=sql)\" }\n", path: "rules[0].match.feedback", line: 3, message: /lookahead/ },
    { name: "an overlong pattern", text: `rules:\n  - name: a\n    match: { feedback: "${"a".repeat(501)}" }\n`, path: "rules[0].match.feedback", line: 3, message: /limit is 500/ },
    { name: "an unknown guard kind", text: "rules:\n  - name: a\n    match: { guard: [security, firewall] }\n", path: "rules[0].match.guard[1]", line: 3, message: /"firewall" is not a guard kind/ },
    { name: "an unknown field", text: "rules:\n  - name: a\n    grup: security\n", path: "rules[0].grup", line: 3, message: /not a field here/ },
    { name: "a missing name", text: "rules:\n  - group: security\n", path: "rules[0].name", line: 2, message: /required/ },
    { name: "a duplicate name", text: "rules:\n  - name: a\n  - name: a\n", path: "rules[1].name", line: 3, message: /already the name of rules\[0\]/ },
    { name: "too many approvals", text: "rules:\n  - name: a\n    quorum: { approvals: 11 }\n", path: "rules[0].quorum.approvals", line: 3, message: /1 to 10/ },
    { name: "a fractional approval count", text: "rules:\n  - name: a\n    quorum: { approvals: 1.5 }\n", path: "rules[0].quorum.approvals", line: 3, message: /whole number/ },
    { name: "zero hours", text: "default:\n  deadline: { hours: 0 }\n", path: "default.deadline.hours", line: 2, message: /above 0/ },
    { name: "an unknown channel", text: "default:\n  channels: [email, fax]\n", path: "default.channels[1]", line: 2, message: /one of email, slack/ },
    { name: "a backup after the deadline", text: "default:\n  deadline: { hours: 2 }\n  backup: { group: oncall, after_hours: 3 }\n", path: "default.backup", line: 3, message: /never be offered/ },
    { name: "a backup without hours", text: "default:\n  backup: { group: oncall }\n", path: "default.backup.after_hours", line: 2, message: /required/ },
    { name: "a YAML syntax error", text: "rules:\n  - name: [unclosed\n", path: "document", line: 3, message: /./ },
    { name: "rules not a list", text: "rules: security\n", path: "rules", line: 1, message: /list of rules/ },
  ];
  it.each(cases)("$name", (entry) => {
    const result = parseRoutingDocument(entry.text, { groups: GROUPS });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problem = result.problems.find((candidate) => candidate.path === entry.path) ?? result.problems[0];
    expect(problem?.path, JSON.stringify(result.problems)).toBe(entry.path);
    expect(problem?.line).toBe(entry.line);
    expect(problem?.message).toMatch(entry.message);
  });

  it("lists every problem of a document at once, up to a bound", () => {
    const rules = Array.from({ length: 80 }, (_, index) => `  - name: r${index}\n    group: missing${index}\n`).join("");
    const result = parseRoutingDocument(`rules:\n${rules}`, { groups: GROUPS });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(51);
    expect(result.problems.at(-1)?.message).toBe("30 more problem(s) not shown");
  });

  it("refuses an oversized document before parsing it", () => {
    const result = parseRoutingDocument(`# ${"x".repeat(70_000)}\n`, { groups: GROUPS });
    expect(result).toEqual({ ok: false, problems: [{ path: "document", message: expect.stringMatching(/limit is 65536/) }] });
  });

  it("refuses more rules than the limit", () => {
    const rules = Array.from({ length: 201 }, (_, index) => `  - name: r${index}\n`).join("");
    const result = parseRoutingDocument(`rules:\n${rules}`, { groups: GROUPS });
    expect(result.ok ? [] : result.problems.map((problem) => problem.message)).toEqual(["has 201 rules; the limit is 200"]);
  });

  it("refuses a pattern whose RE2 program is too large: linear, but each search would cost hundreds of milliseconds", () => {
    const result = parseRoutingDocument('rules:\n  - name: a\n    match: { feedback: "[a-y]{1,1000}[0-9]" }\n', { groups: GROUPS });
    expect(result.ok ? [] : result.problems).toEqual([{ path: "rules[0].match.feedback", line: 3, column: expect.any(Number), message: expect.stringMatching(/RE2 instructions; the limit is 1000/) }]);
  });

  it("refuses patterns whose programs together are too large for one escalation's routing", () => {
    const count = Math.ceil(ROUTING_LIMITS.maxPatternsProgram / 900) + 1;
    const rules = Array.from({ length: count }, (_, index) => `  - name: r${index}\n    match: { feedback: "[a-y]{1,449}[${index % 10}]" }\n`).join("");
    const result = parseRoutingDocument(`rules:\n${rules}`, { groups: GROUPS });
    expect(result.ok ? [] : result.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(new RegExp(`the document's patterns have \\d+ RE2 instructions in all; the limit is ${ROUTING_LIMITS.maxPatternsProgram}`))]);
  });

  it("a catastrophic pattern RE2 accepts still runs in linear time", () => {
    const document = parsed("rules:\n  - name: slow elsewhere\n    match: { feedback: \"^(a+)+$\" }\n");
    const started = performance.now();
    expect(resolvePolicy(document, facts({ feedback: `${"a".repeat(9_999)}!` })).rule).toBe("default");
    // Backtracking engines take minutes on this; RE2 takes milliseconds. Roomy for a loaded machine.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("rules inherit what they leave out from the default", () => {
  it("takes the default's deadline and channels, and a hand-off only with its action", () => {
    const document = parsed(`rules:
  - name: hours only
    match: { step: a }
    deadline: { hours: 3 }
  - name: other action
    match: { step: b }
    deadline: { on_deadline: reject }
default:
  deadline: { hours: 10, on_deadline: handoff, handoff_group: leads, handoff_hours: 2 }
  channels: [slack]
`);
    expect(resolvePolicy(document, facts({ step: "a" })).deadline).toEqual({ hours: 3, action: "handoff", handoffGroup: "leads", handoffHours: 2 });
    expect(resolvePolicy(document, facts({ step: "b" })).deadline).toEqual({ hours: 10, action: "reject", handoffGroup: null, handoffHours: null });
    expect(resolvePolicy(document, facts({ step: "b" })).channels).toEqual(["slack"]);
  });
});

describe("guardKindsOfStep", () => {
  const definition = {
    steps: [
      { name: "write", guards: [{ kind: "syntax" }, { kind: "all_of", guards: [{ kind: "test" }, { kind: "any_of", guards: [{ kind: "security" }] }] }] },
      { name: "plain" },
    ],
  };
  it.each([
    ["write", ["syntax", "all_of", "test", "any_of", "security"]],
    ["plain", []],
    ["missing", []],
  ])("%s → %j", (step, kinds) => {
    expect(guardKindsOfStep(definition, step)).toEqual(kinds);
  });
  it("reads a malformed definition as no guards", () => {
    expect(guardKindsOfStep("nonsense", "write")).toEqual([]);
    expect(guardKindsOfStep({ steps: [{ name: "write", guards: [null, 3, { kind: 7 }] }] }, "write")).toEqual([]);
  });
});
