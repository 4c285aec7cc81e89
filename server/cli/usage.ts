export const USAGE = `Usage: dualstate <command> [options]

Commands:
  start [--port N] [--hostname H]   Build if needed, migrate the database, serve the dashboard
  dev [--port N] [--hostname H]     Migrate the database and run the dashboard in development mode
  db migrate                        Create the database if missing and apply pending migrations

Options:
  -h, --help       Show this help
  -v, --version    Print the version

Configuration comes from the environment (see .env.example):
  DATABASE_URL     file:PATH for SQLite (default file:./data/dualstate.db) or postgresql://...
  PORT             Port of the dashboard (default 3000)
  OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL   The OpenAI-compatible endpoint for generators
`;
