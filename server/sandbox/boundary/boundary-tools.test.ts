import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findBoundaryTools } from "./boundary-tools";

describe("finding the boundary's tools", () => {
  const empty = mkdtempSync(join(tmpdir(), "dualstate-no-bwrap-"));
  const partial = mkdtempSync(join(tmpdir(), "dualstate-only-bwrap-"));
  symlinkSync("/usr/bin/bwrap", join(partial, "bwrap"));
  afterAll(() => {
    rmSync(empty, { recursive: true, force: true });
    rmSync(partial, { recursive: true, force: true });
  });

  it("without bwrap: unavailable, saying how to install it (never a weaker mode)", async () => {
    expect(await findBoundaryTools([empty])).toEqual({ ok: false, message: expect.stringContaining("apt-get install bubblewrap") });
  });

  it("names the other missing tools too", async () => {
    expect(await findBoundaryTools([partial])).toEqual({ ok: false, message: expect.stringContaining("prlimit (util-linux) is not installed") });
  });

  it("is unavailable off Linux", async () => {
    expect(await findBoundaryTools(["/usr/bin"], "darwin")).toEqual({ ok: false, message: expect.stringContaining("needs Linux namespaces") });
  });

  it("finds all three on this machine", async () => {
    expect(await findBoundaryTools(["/usr/bin", "/bin"])).toMatchObject({ ok: true, bwrap: expect.stringMatching(/bwrap$/), prlimit: expect.stringMatching(/prlimit$/) });
  });
});
