import type { EscalationPolicy } from "@/server/review-policy/escalation-policy";

/** One line saying where a policy sends an escalation: "security · 2 approvals (not the starter) · 8 h, then handed to leads · email, slack". */
export function describePolicy(policy: EscalationPolicy): string {
  const parts = [policy.group ?? "every reviewer"];
  const { approvals, excludeRunStarter, rejections } = policy.quorum;
  if (approvals > 1 || excludeRunStarter) parts.push(`${approvals} approval${approvals === 1 ? "" : "s"}${excludeRunStarter ? " (not the run's starter)" : ""}`);
  if (rejections > 1) parts.push(`${rejections} rejections decide`);
  const deadline = policy.deadline;
  const then = deadline.action === "handoff" ? `handed to ${deadline.handoffGroup} for ${deadline.handoffHours} h` : deadline.action === "reject" ? "rejected" : "the run fails";
  parts.push(`${deadline.hours === null ? "workflow's deadline" : `${deadline.hours} h`}, then ${then}`);
  if (policy.backup) parts.push(`backup ${policy.backup.group} after ${policy.backup.afterHours} h`);
  parts.push(policy.channels.length === 0 ? "no notifications" : policy.channels.join(", "));
  return parts.join(" · ");
}
