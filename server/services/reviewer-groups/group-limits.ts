/** Bounds on what admins build on the groups page: every group and member is read on each list, route and queue filter. */
export const GROUP_LIMITS = Object.freeze({
  maxGroups: 200,
  maxMembers: 1_000,
});
