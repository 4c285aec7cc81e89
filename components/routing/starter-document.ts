/** What the routing editor shows before any version is saved: today's behaviour, with an example rule to copy. */
export const STARTER_DOCUMENT = `# Routing: which reviewers get an escalation, how many must approve, and what its deadline does.
# Rules are tried in order; the first whose every condition holds wins. See docs/routing.md.
rules: []
#  - name: auth code
#    match: { workflow: payments, step: implement, guard: security, feedback: "(?i)sql" }
#    group: security
#    quorum: { approvals: 2, exclude_run_starter: true, rejections: 1 }
#    deadline: { hours: 8, on_deadline: handoff, handoff_group: leads, handoff_hours: 4 }
#    backup: { group: oncall, after_hours: 2 }
#    channels: [email, slack]
default:
  group: null
`;
