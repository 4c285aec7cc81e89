import { describe, expect, it } from "vitest";
import { createFailingDb } from "./testing/test-caller";
import { handleTRPCRequest } from "./http-handler";
import type { Actor } from "./trpc";

const VIEWER: Actor = { id: "u-viewer", email: "viewer@example.com", role: "viewer", via: "session" };

/** A valid workflow of `count` states in a chain, one step each: about 190 bytes per state. */
function chainDocument(count: number): string {
  const states = Array.from({ length: count }, (_, index) => `s${index}`);
  const steps = states.slice(0, -1).map((state, index) => [`  - name: step_${index}`, `    in_state: ${state}`, `    prompt: "Describe part ${index} of {specification} in one careful paragraph"`, `    transition_to: s${index + 1}`]);
  return ["name: long-chain", "state_machine:", `  states: [${states.join(", ")}]`, "  initial_state: s0", `  final_states: [s${count - 1}]`, "steps:", ...steps.flat(), ""].join("\n");
}

/** The editor's live check as the browser sends it: a query, as POST with the document in the body. */
function postCheck(document: string) {
  const request = new Request("http://localhost/api/trpc/workflow.check", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ json: { document } }),
  });
  return handleTRPCRequest(request, () => createFailingDb("the check reads no database"), async () => VIEWER);
}

describe("the editor's live check over HTTP", () => {
  it("checks a document of more than 50 KB sent as POST", async () => {
    const document = chainDocument(400);
    expect(document.length).toBeGreaterThan(50 * 1024);

    const response = await postCheck(document);

    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { data: { json: { ok: boolean; problems: unknown[]; machine: { states: unknown[] } | null } } } };
    expect(body.result.data.json.ok).toBe(true);
    expect(body.result.data.json.problems).toEqual([]);
    expect(body.result.data.json.machine?.states.length).toBeGreaterThanOrEqual(400);
  });

  it("reports a document over the format's 1 MiB as a problem at document, not a crash", async () => {
    const response = await postCheck(`name: big\ndescription: "${"x".repeat(1024 * 1024)}"\n`);

    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { data: { json: { ok: boolean; problems: { path: string; message: string }[] } } } };
    expect(body.result.data.json.ok).toBe(false);
    expect(body.result.data.json.problems).toEqual([{ path: "document", message: expect.stringMatching(/the limit is 1 MiB/) }]);
  });

  it("refuses a body beyond the input's cap with a message naming the field", async () => {
    const response = await postCheck("x".repeat(2 * 1024 * 1024 + 1));

    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { json: { message: string } } };
    expect(body.error.json.message).toBe("document: must be at most 2 MiB (the document format allows 1 MiB)");
  });
});
