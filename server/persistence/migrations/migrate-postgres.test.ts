import { describe, expect, it } from "vitest";
import { MigrationError, migrateDatabase } from "./migrate";

describe("migrateDatabase on a PostgreSQL server it cannot reach", () => {
  it("names the server and the reason, without the password", async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    const failure = await migrateDatabase("postgresql://ada:s3cret-pw@127.0.0.1:1/dualstate").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(/^Cannot connect to the PostgreSQL database 127\.0\.0\.1:1\/dualstate: .*ECONNREFUSED/);
    expect((failure as Error).message).not.toContain("s3cret-pw");
  });
});
