/** The two databases Dualstate runs on, and the Prisma schema header each one needs. */
export const PROVIDERS = ["sqlite", "postgres"] as const;
export type DatabaseProvider = (typeof PROVIDERS)[number];

const PRISMA_PROVIDER: Record<DatabaseProvider, string> = {
  sqlite: "sqlite",
  postgres: "postgresql",
};

/** Prefixes the shared models with the generator and datasource blocks of one provider. */
export function renderProviderSchema(provider: DatabaseProvider, models: string): string {
  return `// Generated from prisma/models.prisma by scripts/generate-prisma-schemas.ts. Do not edit.

generator client {
  provider               = "prisma-client"
  output                 = "../generated/${provider}"
  engineType             = "client"
  runtime                = "nodejs"
  moduleFormat           = "esm"
  generatedFileExtension = "ts"
  importFileExtension    = ""
}

datasource db {
  provider = "${PRISMA_PROVIDER[provider]}"
  url      = env("DATABASE_URL")
}

${models.trimEnd()}
`;
}
