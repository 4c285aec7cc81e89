import { describeCallLedgerConformance } from "../testing/call-ledger-conformance";
import { MemoryCallLedger } from "./memory-call-ledger";

describeCallLedgerConformance("in memory", async () => ({
  async open() {
    const ledger = new MemoryCallLedger();
    // A memory ledger lives as long as its process: "reopening" is using it again.
    return { ledger, reopen: () => ledger, steps: async () => ledger.steps.map(({ actor, type, payload }) => ({ actor, type, payload })) };
  },
  dispose: async () => {},
}));
