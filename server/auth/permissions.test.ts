import { describe, expect, it } from "vitest";
import { ACTION_NAMES, can, hasRole, permissionsOf, refusalReason, roleFor, ROLES } from "./permissions";

describe("can", () => {
  it("orders the roles viewer < reviewer < admin", () => {
    expect(hasRole("admin", "reviewer")).toBe(true);
    expect(hasRole("reviewer", "reviewer")).toBe(true);
    expect(hasRole("viewer", "reviewer")).toBe(false);
    expect(hasRole("reviewer", "admin")).toBe(false);
  });

  it("lets viewers only look", () => {
    expect(can("viewer", "view")).toBe(true);
    for (const action of ["start_run", "cancel_run", "fork_run", "save_workflow", "create_workflow", "claim_escalation", "decide_escalation", "report_tool_result", "answer_question", "manage_users"] as const) {
      expect(can("viewer", action)).toBe(false);
    }
  });

  it("lets reviewers run, save and decide, but not administer", () => {
    expect(can("reviewer", "start_run")).toBe(true);
    expect(can("reviewer", "save_workflow")).toBe(true);
    expect(can("reviewer", "decide_escalation")).toBe(true);
    expect(can("reviewer", "report_tool_result")).toBe(true);
    expect(can("reviewer", "answer_question")).toBe(true);
    expect(can("reviewer", "manage_users")).toBe(false);
    expect(can("reviewer", "read_audit_log")).toBe(false);
  });

  it("lets admins do everything", () => {
    for (const action of ACTION_NAMES) expect(can("admin", action)).toBe(true);
  });

  it("allows nothing to nobody, nor to a role it does not know", () => {
    expect(can(null, "view")).toBe(false);
    expect(can(undefined, "view")).toBe(false);
    expect(can("owner" as never, "view")).toBe(false);
  });

  it("agrees with roleFor for every role and action", () => {
    for (const role of ROLES) for (const action of ACTION_NAMES) expect(can(role, action)).toBe(hasRole(role, roleFor(action)));
  });
});

describe("refusalReason", () => {
  it("says who cannot do what, and nothing when allowed", () => {
    expect(refusalReason("viewer", "start_run")).toBe("Viewers cannot start runs");
    expect(refusalReason("reviewer", "manage_users")).toBe("Reviewers cannot manage users");
    expect(refusalReason(null, "save_workflow")).toBe("Sign in to save workflows");
    expect(refusalReason("reviewer", "start_run")).toBeNull();
  });
});

describe("permissionsOf", () => {
  it("lists every action with its answer", () => {
    const viewer = permissionsOf("viewer");
    expect(Object.keys(viewer.allowed).sort()).toEqual([...ACTION_NAMES].sort());
    expect(viewer.allowed.view).toBe(true);
    expect(viewer.allowed.start_run).toBe(false);
  });
});
