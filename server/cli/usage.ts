export const USAGE = `Usage: dualstate <command> [options]

Commands:
  start [--port N] [--hostname H]   Build if needed, migrate the database, serve the dashboard
  dev [--port N] [--hostname H]     Migrate the database and run the dashboard in development mode
  db migrate                        Create the database if missing and apply pending migrations
  guard <kind> <artifact-file>      Check a file with one guard and print the verdict as JSON
        [--language js|ts|python] [--test FILE] [--dep NAME=FILE]... [--option KEY=VALUE]...
        kinds: syntax, test, tdd, security, json_schema, llm_judge, human, all_of, any_of
        VALUE is JSON when it parses as JSON, else text; @FILE reads it from a file
  validate <file> [--json]          Check a workflow document (YAML or JSON); print one line per
                                    problem, then one "warning:" line per warning (exit 1 on
                                    problems only); --json prints { ok, problems, warnings }
  run <file> [--spec TEXT] [--var NAME=VALUE]... [--generator replay --cassette FILE [--no-delay]] [--json] [--detach]
                                    Store the workflow as a version and run it; exit 0 success,
                                    3 failed, 4 escalation, 5 waiting for tool calls, 2 bad input;
                                    --detach queues the run
                                    for the workers and prints its id; --no-delay replays without
                                    the cassette's pauses (delay_ms)
  eval <workflow> --dataset FILE|NAME [--dataset-version N] [--dataset-name NAME] [--version N]
       [--k N] [--concurrency N] [--cassette FILE [--no-delay]] [--baseline EXPERIMENT]
       [--fail-under RATE] [--name TEXT] [--json]
                                    Run an experiment: the workflow (stored name or document file)
                                    over every case of the dataset (stored name or JSONL/CSV/YAML
                                    file, stored as dataset NAME or named after the file), k times
                                    each, with workers in this process; --name names the experiment; exit 0
                                    passed, 3 pass rate below RATE (0.8 or 80%), 4 regression
                                    against the baseline experiment, 5 not completed, 2 bad input
  worker [--concurrency N]          Execute queued runs (any number of workers may share a database);
                                    SIGTERM drains and stops
  runs list [--json] [--limit N]    Recent runs with their head: status, epoch, lease
  runs show <id> [--json]           One run: head, result, ledger summary, attempts
  runs report <runId> <callId> (--result JSON | --result-file FILE) [--as EMAIL] [--json]
                                    Report an external tool's result (one JSON object; FILE - reads
                                    standard input); exit 0 applied or, for a duplicate or late
                                    report, acknowledged without effect; 1 refused, 2 bad input
  escalations list [--status S] [--workflow W] [--step S] [--sort oldest|newest|deadline] [--limit N] [--json]
                                    The review queue (pending by default), with counts per status
  escalations show <id> [--json]    One escalation: fatal feedback, offending line, numbered artifact
  escalations approve <id> --as EMAIL [--comment TEXT] [--edit FILE] [--hash HEX] [--json]
  escalations reject <id> --as EMAIL [--comment REASON | --feedback TEXT] [--hash HEX] [--json]
                                    Decide as the reviewer or admin EMAIL; --feedback sends the step
                                    back to retry with TEXT as guard feedback, --edit approves FILE
                                    as an edited artifact; --hash pins the artifact decided on;
                                    --json prints the outcome as JSON
  export <workflow name> [--version N]
                                    Print a stored workflow definition as YAML
  cassette export <runId> [--output FILE]
                                    Print a run's artifacts as a replay cassette (JSON), or write it to FILE
  provenance export <runId> [--git DIR | --output FILE]
                                    Write a run's provenance as a git repository in DIR (one commit
                                    per attempt, verdict in the message), or print it as PROV-JSON
  datasets upload <file> --name NAME [--description TEXT] [--as EMAIL] [--json]
                                    Store a JSONL, CSV or YAML file of cases as the next version of
                                    dataset NAME (created when new); exit 1 lists each mistake as
                                    FILE:LINE: field: message
  datasets list [--json]            Datasets with their newest version and number of cases

Options:
  -h, --help       Show this help
  -v, --version    Print the version

Configuration comes from the environment (see .env.example):
  DATABASE_URL     file:PATH for SQLite (default file:./data/dualstate.db) or postgresql://...
  PORT             Port of the dashboard (default 3000)
  OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL   The OpenAI-compatible endpoint for generators
                   (more under Admin → Models; DUALSTATE_SECRET_KEY encrypts their keys)
  DUALSTATE_EMBEDDED_WORKER (true), DUALSTATE_WORKER_CONCURRENCY (2), DUALSTATE_LEASE_SECONDS (30),
  DUALSTATE_ESCALATION_TIMEOUT_HOURS (72), DUALSTATE_SQLITE_SYNCHRONOUS (FULL)   Workers and durability
`;
