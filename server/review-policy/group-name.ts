/**
 * How a reviewer group may be named: the groups page refuses other names, and the routing
 * document's validator says so at the field that names one. Kept short and plain because the
 * name is shown in queues, emails and Slack, and is part of notification recipients (`group:<name>`).
 */
export const GROUP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const GROUP_NAME_RULE = "1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit";

/** Why `name` cannot name a group, or null when it can. */
export function groupNameProblem(name: string): string | null {
  return GROUP_NAME_PATTERN.test(name) ? null : `"${name.length > 80 ? `${name.slice(0, 80)}…` : name}" is not a group name: ${GROUP_NAME_RULE}`;
}
