import { Buffer } from "node:buffer";
import { GUARD_KINDS, type GuardKind } from "@/server/engine/domain/catalogue";
import { formatPath, loadWorkflowDocument, MAX_PROBLEMS } from "@/server/workflows/document";
import type { DocumentPath, DocumentProblem, SourcePosition } from "@/server/workflows/document";
import { DEADLINE_ACTIONS, DEFAULT_ESCALATION_POLICY, NOTIFICATION_CHANNELS, POLICY_LIMITS, type DeadlineAction, type EscalationPolicy, type NotificationChannel } from "../escalation-policy";
import { groupNameProblem } from "../group-name";
import { compileFeedbackPattern } from "./feedback-pattern";
import { DEFAULT_RULE_NAME, ROUTING_LIMITS, type RoutingDocument, type RoutingMatch, type RoutingRule } from "./routing-document";

export type RoutingParseResult = { ok: true; document: RoutingDocument } | { ok: false; problems: DocumentProblem[] };

export interface RoutingParseOptions {
  /** The reviewer groups that exist: a document naming another is refused. */
  readonly groups: Iterable<string>;
}

const POLICY_KEYS = ["group", "quorum", "deadline", "backup", "channels"] as const;
const RULE_KEYS = ["name", "match", ...POLICY_KEYS] as const;
const MATCH_KEYS = ["workflow", "step", "guard", "feedback"] as const;
const QUORUM_KEYS = ["approvals", "exclude_run_starter", "rejections"] as const;
const DEADLINE_KEYS = ["hours", "on_deadline", "handoff_group", "handoff_hours"] as const;
const BACKUP_KEYS = ["group", "after_hours"] as const;

/**
 * A routing document (YAML or JSON text) to rules and a default policy, or every problem found,
 * each with its field path and line (the workflow loader's bounds and located errors). Never throws.
 *
 *     rules:
 *       - name: auth code
 *         match: { workflow: payments, step: implement, guard: security, feedback: "(?i)sql" }
 *         group: security
 *         quorum: { approvals: 2, exclude_run_starter: true, rejections: 1 }
 *         deadline: { hours: 8, on_deadline: handoff, handoff_group: leads, handoff_hours: 4 }
 *         backup: { group: oncall, after_hours: 2 }
 *         channels: [email, slack]
 *     default: { group: null }
 */
export function parseRoutingDocument(text: string, options: RoutingParseOptions): RoutingParseResult {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > ROUTING_LIMITS.maxDocumentBytes) return { ok: false, problems: [{ path: "document", message: `is ${bytes} bytes; the limit is ${ROUTING_LIMITS.maxDocumentBytes}` }] };
  const loaded = loadWorkflowDocument(text, { format: "yaml" });
  if (!loaded.ok) return { ok: false, problems: loaded.problems };
  const check = new Checker(loaded.locate, new Set(options.groups));
  const document = check.document(loaded.value);
  const problems = check.finish();
  return problems.length > 0 || document === null ? { ok: false, problems } : { ok: true, document };
}

type Locate = (path: DocumentPath) => SourcePosition | undefined;
type Mapping = Record<string, unknown>;

/** Reads the loaded value field by field, collecting a located problem for each thing wrong. */
class Checker {
  private readonly problems: DocumentProblem[] = [];
  private dropped = 0;
  /** RE2 instructions of the patterns read so far (ROUTING_LIMITS.maxPatternsProgram). */
  private patternsProgram = 0;

  constructor(
    private readonly locate: Locate,
    private readonly groups: ReadonlySet<string>,
  ) {}

  finish(): DocumentProblem[] {
    return this.dropped === 0 ? this.problems : [...this.problems, { path: "document", message: `${this.dropped} more problem(s) not shown` }];
  }

  private add(path: DocumentPath, message: string): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      this.dropped++;
      return;
    }
    // A path missing from the source (a required field left out) points at its nearest written parent.
    let at: SourcePosition | undefined;
    for (let length = path.length; at === undefined && length >= 0; length--) at = this.locate(path.slice(0, length));
    this.problems.push({ path: formatPath(path), ...(at ?? {}), message });
  }

  document(value: unknown): RoutingDocument | null {
    // An empty document routes nothing: every escalation follows the default policy.
    if (value === null) return { rules: [], defaultPolicy: { ...DEFAULT_ESCALATION_POLICY, rule: DEFAULT_RULE_NAME } };
    const root = this.mapping(value, [], ["rules", "default"]);
    if (!root) return null;
    const defaultPolicy = root.default === undefined ? { ...DEFAULT_ESCALATION_POLICY, rule: DEFAULT_RULE_NAME } : this.policy(root.default, ["default"], DEFAULT_ESCALATION_POLICY, DEFAULT_RULE_NAME, POLICY_KEYS);
    const rules: RoutingRule[] = [];
    if (root.rules !== undefined && root.rules !== null) {
      if (!Array.isArray(root.rules)) this.add(["rules"], "must be a list of rules");
      else if (root.rules.length > ROUTING_LIMITS.maxRules) this.add(["rules"], `has ${root.rules.length} rules; the limit is ${ROUTING_LIMITS.maxRules}`);
      else {
        const names = new Map<string, number>();
        root.rules.forEach((entry, index) => {
          const rule = this.rule(entry, index, defaultPolicy ?? DEFAULT_ESCALATION_POLICY);
          if (!rule) return;
          const earlier = names.get(rule.name);
          if (earlier !== undefined) this.add(["rules", index, "name"], `"${rule.name}" is already the name of rules[${earlier}]; rule names must be unique`);
          else names.set(rule.name, index);
          rules.push(rule);
        });
      }
    }
    return defaultPolicy ? { rules, defaultPolicy } : null;
  }

  private rule(value: unknown, index: number, base: EscalationPolicy): RoutingRule | null {
    const path = ["rules", index];
    const fields = this.mapping(value, path, RULE_KEYS);
    if (!fields) return null;
    const name = this.ruleName(fields.name, [...path, "name"]);
    const match = fields.match === undefined ? {} : this.match(fields.match, [...path, "match"]);
    const policy = this.policy(fields, path, base, name ?? DEFAULT_RULE_NAME, RULE_KEYS);
    return name !== null && match && policy ? { name, match, policy } : null;
  }

  private ruleName(value: unknown, path: DocumentPath): string | null {
    if (value === undefined) return this.fail(path, "is required: every rule has a name (it is shown on escalations and in the dry run)");
    if (typeof value !== "string" || value.trim() === "") return this.fail(path, "must be a non-empty text");
    if (value.length > ROUTING_LIMITS.maxRuleNameLength) return this.fail(path, `is ${value.length} characters; the limit is ${ROUTING_LIMITS.maxRuleNameLength}`);
    if (value.trim() === DEFAULT_RULE_NAME) return this.fail(path, `"${DEFAULT_RULE_NAME}" names the default policy; choose another name`);
    return value.trim();
  }

  private match(value: unknown, path: DocumentPath): RoutingMatch | null {
    const fields = this.mapping(value, path, MATCH_KEYS);
    if (!fields) return null;
    let ok = true;
    const names = (key: string) => {
      const listed = this.names(fields[key], [...path, key]);
      if (listed === null) ok = false;
      return listed;
    };
    const workflows = names("workflow");
    const steps = names("step");
    const guardNames = names("guard");
    const guards = guardNames?.filter((kind, position): kind is GuardKind => {
      if ((GUARD_KINDS as readonly string[]).includes(kind)) return true;
      const where = Array.isArray(fields.guard) ? [...path, "guard", position] : [...path, "guard"];
      this.add(where, `"${kind}" is not a guard kind: one of ${GUARD_KINDS.join(", ")}`);
      ok = false;
      return false;
    });
    let feedback: RoutingMatch["feedback"];
    if (fields.feedback !== undefined) {
      if (typeof fields.feedback !== "string") ok = this.fail([...path, "feedback"], "must be a regular expression written as text") !== null;
      else {
        const compiled = compileFeedbackPattern(fields.feedback);
        if (typeof compiled === "string") ok = this.fail([...path, "feedback"], compiled) !== null;
        else {
          const before = this.patternsProgram;
          this.patternsProgram += compiled.programSize;
          if (this.patternsProgram <= ROUTING_LIMITS.maxPatternsProgram) feedback = compiled;
          else {
            // Said once, at the pattern that passes the limit.
            if (before <= ROUTING_LIMITS.maxPatternsProgram) this.add([...path, "feedback"], `the document's patterns have ${this.patternsProgram} RE2 instructions in all; the limit is ${ROUTING_LIMITS.maxPatternsProgram}`);
            ok = false;
          }
        }
      }
    }
    if (!ok) return null;
    return {
      ...(workflows ? { workflows } : {}),
      ...(steps ? { steps } : {}),
      ...(guards ? { guards } : {}),
      ...(feedback ? { feedback } : {}),
    };
  }

  /** A name or a list of names; undefined when absent, null when wrong. */
  private names(value: unknown, path: DocumentPath): string[] | undefined | null {
    if (value === undefined) return undefined;
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) return this.fail(path, "must name at least one (leave the condition out to match any)");
    if (list.length > ROUTING_LIMITS.maxMatchValues) return this.fail(path, `lists ${list.length} names; the limit is ${ROUTING_LIMITS.maxMatchValues}`);
    const names: string[] = [];
    for (const [position, item] of list.entries()) {
      const where = Array.isArray(value) ? [...path, position] : path;
      if (typeof item !== "string" || item === "" || item.length > 200) return this.fail(where, "must be a name (text of 1 to 200 characters)");
      names.push(item);
    }
    return names;
  }

  /** The policy fields of a rule or of the default, over `base` (what the rule leaves out). */
  private policy(value: unknown, path: DocumentPath, base: EscalationPolicy, rule: string, keys: readonly string[]): EscalationPolicy | null {
    const fields = this.mapping(value, path, keys);
    if (!fields) return null;
    const before = this.problems.length + this.dropped;
    const group = fields.group === undefined ? base.group : this.groupOrNull(fields.group, [...path, "group"]);
    const quorum = fields.quorum === undefined ? base.quorum : this.quorum(fields.quorum, [...path, "quorum"], base.quorum);
    const deadline = fields.deadline === undefined ? base.deadline : this.deadline(fields.deadline, [...path, "deadline"], base.deadline);
    const backup = fields.backup === undefined ? base.backup : this.backup(fields.backup, [...path, "backup"]);
    const channels = fields.channels === undefined ? base.channels : this.channels(fields.channels, [...path, "channels"]);
    if (this.problems.length + this.dropped > before || !quorum || !deadline || !channels || group === undefined || backup === undefined) return null;
    if (backup && deadline.hours !== null && backup.afterHours >= deadline.hours) {
      this.add([...path, fields.backup === undefined ? "deadline" : "backup"], `the backup comes after ${backup.afterHours} hours, not before the deadline at ${deadline.hours} hours: it would never be offered`);
      return null;
    }
    return { group, quorum, deadline, backup, channels, rule };
  }

  private quorum(value: unknown, path: DocumentPath, base: EscalationPolicy["quorum"]): EscalationPolicy["quorum"] | null {
    const fields = this.mapping(value, path, QUORUM_KEYS);
    if (!fields) return null;
    const approvals = fields.approvals === undefined ? base.approvals : this.count(fields.approvals, [...path, "approvals"]);
    const rejections = fields.rejections === undefined ? base.rejections : this.count(fields.rejections, [...path, "rejections"]);
    let excludeRunStarter: boolean | null = base.excludeRunStarter;
    if (fields.exclude_run_starter !== undefined) excludeRunStarter = typeof fields.exclude_run_starter === "boolean" ? fields.exclude_run_starter : this.fail([...path, "exclude_run_starter"], "must be true or false");
    return approvals !== null && rejections !== null && excludeRunStarter !== null ? { approvals, excludeRunStarter, rejections } : null;
  }

  private deadline(value: unknown, path: DocumentPath, base: EscalationPolicy["deadline"]): EscalationPolicy["deadline"] | null {
    const fields = this.mapping(value, path, DEADLINE_KEYS);
    if (!fields) return null;
    const hours = fields.hours === undefined ? base.hours : fields.hours === null ? null : this.hours(fields.hours, [...path, "hours"]);
    if (fields.hours !== undefined && fields.hours !== null && hours === null) return null;
    // A rule that says what the deadline does says all of it: a hand-off's group and hours are not inherited into another action.
    const action = fields.on_deadline === undefined ? base.action : this.action(fields.on_deadline, [...path, "on_deadline"]);
    if (action === null) return null;
    const inherits = fields.on_deadline === undefined;
    let handoffGroup = inherits ? base.handoffGroup : null;
    let handoffHours = inherits ? base.handoffHours : null;
    if (fields.handoff_group !== undefined || fields.handoff_hours !== undefined) {
      if (action !== "handoff") {
        const key = fields.handoff_group !== undefined ? "handoff_group" : "handoff_hours";
        return this.fail([...path, key], `only goes with on_deadline: handoff (the deadline action here is "${action}")`);
      }
      if (fields.handoff_group !== undefined) handoffGroup = this.group(fields.handoff_group, [...path, "handoff_group"]);
      if (fields.handoff_hours !== undefined) handoffHours = this.hours(fields.handoff_hours, [...path, "handoff_hours"]);
      if ((fields.handoff_group !== undefined && handoffGroup === null) || (fields.handoff_hours !== undefined && handoffHours === null)) return null;
    }
    if (action === "handoff" && (handoffGroup === null || handoffHours === null)) {
      return this.fail([...path, handoffGroup === null ? "handoff_group" : "handoff_hours"], "is required with on_deadline: handoff (the group that takes the escalation at the deadline, and the hours it gets)");
    }
    return { hours, action, handoffGroup, handoffHours };
  }

  private action(value: unknown, path: DocumentPath): DeadlineAction | null {
    if (value === "approve") return this.fail(path, `is never "approve": fatal code is not approved by silence; use one of ${DEADLINE_ACTIONS.join(", ")}`);
    if (typeof value !== "string" || !(DEADLINE_ACTIONS as readonly string[]).includes(value)) return this.fail(path, `must be one of ${DEADLINE_ACTIONS.join(", ")}`);
    return value as DeadlineAction;
  }

  private backup(value: unknown, path: DocumentPath): EscalationPolicy["backup"] | undefined {
    if (value === null) return null;
    const fields = this.mapping(value, path, BACKUP_KEYS);
    if (!fields) return undefined;
    if (fields.group === undefined) return this.fail([...path, "group"], "is required: the group offered the escalation when nobody claimed it") ?? undefined;
    if (fields.after_hours === undefined) return this.fail([...path, "after_hours"], "is required: how long an unclaimed escalation waits before the backup group is offered it") ?? undefined;
    const group = this.group(fields.group, [...path, "group"]);
    const afterHours = this.hours(fields.after_hours, [...path, "after_hours"]);
    return group !== null && afterHours !== null ? { group, afterHours } : undefined;
  }

  private channels(value: unknown, path: DocumentPath): NotificationChannel[] | null {
    if (!Array.isArray(value)) return this.fail(path, `must be a list of channels (${NOTIFICATION_CHANNELS.join(", ")}), [] for none`);
    const channels: NotificationChannel[] = [];
    for (const [index, item] of value.entries()) {
      if (typeof item !== "string" || !(NOTIFICATION_CHANNELS as readonly string[]).includes(item)) return this.fail([...path, index], `must be one of ${NOTIFICATION_CHANNELS.join(", ")}`);
      if (channels.includes(item as NotificationChannel)) return this.fail([...path, index], `"${item}" is listed twice`);
      channels.push(item as NotificationChannel);
    }
    return channels;
  }

  /** A group name, or null (every reviewer); undefined when wrong. */
  private groupOrNull(value: unknown, path: DocumentPath): string | null | undefined {
    if (value === null) return null;
    return this.group(value, path) ?? undefined;
  }

  private group(value: unknown, path: DocumentPath): string | null {
    if (typeof value !== "string") return this.fail(path, "must be the name of a reviewer group");
    const problem = groupNameProblem(value);
    if (problem) return this.fail(path, problem);
    if (!this.groups.has(value)) {
      const known = [...this.groups].sort().slice(0, 20);
      return this.fail(path, `"${value}" is not a reviewer group (${known.length === 0 ? "there are none yet: create it under Admin → Groups" : `groups: ${known.join(", ")}`})`);
    }
    return value;
  }

  private count(value: unknown, path: DocumentPath): number | null {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > POLICY_LIMITS.maxApprovals) return this.fail(path, `must be a whole number from 1 to ${POLICY_LIMITS.maxApprovals}`);
    return value;
  }

  private hours(value: unknown, path: DocumentPath): number | null {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > POLICY_LIMITS.maxHours) return this.fail(path, `must be a number of hours above 0 and at most ${POLICY_LIMITS.maxHours}`);
    return value;
  }

  /** A mapping whose keys are all in `keys`; null (after saying why) otherwise. */
  private mapping(value: unknown, path: DocumentPath, keys: readonly string[]): Mapping | null {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return this.fail(path, `must be a mapping (with ${keys.join(", ")})`);
    const fields = value as Mapping;
    let ok = true;
    for (const key of Object.keys(fields)) {
      if (keys.includes(key)) continue;
      this.add([...path, key], `is not a field here; expected ${keys.join(", ")}`);
      ok = false;
    }
    return ok ? fields : null;
  }

  private fail(path: DocumentPath, message: string): null {
    this.add(path, message);
    return null;
  }
}
