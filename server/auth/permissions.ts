/**
 * The roles and what each may do, defined once. Pure (no imports): the tRPC procedures enforce
 * these rules, and the dashboard imports the same module to disable or hide what a role cannot do.
 */
export const ROLES = ["viewer", "reviewer", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Every action a role may be refused, with the lowest role allowed it and how a refusal reads. */
const ACTIONS = {
  view: { role: "viewer", refusal: "see workflows, runs and escalations" },
  start_run: { role: "reviewer", refusal: "start runs" },
  cancel_run: { role: "reviewer", refusal: "cancel runs" },
  fork_run: { role: "reviewer", refusal: "fork runs" },
  save_workflow: { role: "reviewer", refusal: "save workflows" },
  create_workflow: { role: "reviewer", refusal: "create workflows" },
  claim_escalation: { role: "reviewer", refusal: "claim escalations" },
  decide_escalation: { role: "reviewer", refusal: "decide escalations" },
  // Reporting an external tool's result moves a run on, as starting one does.
  report_tool_result: { role: "reviewer", refusal: "report tool results" },
  answer_question: { role: "reviewer", refusal: "answer tools' questions" },
  // An experiment starts (and cancels) many runs at once.
  start_experiment: { role: "reviewer", refusal: "start experiments" },
  cancel_experiment: { role: "reviewer", refusal: "cancel experiments" },
  edit_dataset: { role: "reviewer", refusal: "change datasets" },
  manage_users: { role: "admin", refusal: "manage users" },
  manage_tokens: { role: "admin", refusal: "manage API tokens" },
  manage_models: { role: "admin", refusal: "manage model endpoints" },
  read_audit_log: { role: "admin", refusal: "read the audit log" },
  manage_groups: { role: "admin", refusal: "manage reviewer groups" },
  edit_routing: { role: "admin", refusal: "edit the routing document" },
} as const satisfies Record<string, { role: Role; refusal: string }>;

export type Action = keyof typeof ACTIONS;
export const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

/** Whether `role` may do what `required` may (viewer < reviewer < admin). */
export function hasRole(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/** The lowest role allowed `action`. */
export function roleFor(action: Action): Role {
  return ACTIONS[action].role;
}

/** Whether someone with `role` may do `action`; nobody signed in (null) may do nothing. */
export function can(role: Role | null | undefined, action: Action): boolean {
  return role != null && (ROLES as readonly string[]).includes(role) && hasRole(role, ACTIONS[action].role);
}

/** Why `role` may not do `action` ("Viewers cannot start runs"), or null when it may. */
export function refusalReason(role: Role | null | undefined, action: Action): string | null {
  if (can(role, action)) return null;
  return role ? `${role[0]!.toUpperCase()}${role.slice(1)}s cannot ${ACTIONS[action].refusal}` : `Sign in to ${ACTIONS[action].refusal}`;
}

/** What the dashboard needs to know about a person's role, computed once on the server. */
export interface Permissions {
  readonly role: Role;
  readonly allowed: Readonly<Record<Action, boolean>>;
}

export function permissionsOf(role: Role): Permissions {
  return { role, allowed: Object.fromEntries(ACTION_NAMES.map((action) => [action, can(role, action)])) as Record<Action, boolean> };
}
