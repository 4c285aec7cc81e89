import { MemoryCallLedger } from "../run/memory-call-ledger";
import { describePolicyLedgerConformance } from "../testing/policy-ledger-conformance";
import { memoryPolicyLedger } from "./policy-ledger";

describePolicyLedgerConformance("in memory", async () => ({
  async open() {
    const calls = new MemoryCallLedger();
    // A memory ledger lives as long as its process: "reopening" is opening its root again.
    return { ledger: memoryPolicyLedger("run", calls), reopen: () => memoryPolicyLedger("run", calls) };
  },
  dispose: async () => {},
}));
