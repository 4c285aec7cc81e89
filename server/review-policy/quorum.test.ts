import { describe, expect, it } from "vitest";
import { DEFAULT_ESCALATION_POLICY, type QuorumPolicy } from "./escalation-policy";
import { approvalRefusalUnderQuorum, decidesByVote, describeTally, tallyVotes, voteRefusal, type CastVote } from "./quorum";

const twoOfThem: QuorumPolicy = { approvals: 2, excludeRunStarter: true, rejections: 1 };
const approve = (reviewer: string): CastVote => ({ reviewer, vote: "approve" });
const reject = (reviewer: string): CastVote => ({ reviewer, vote: "reject" });

describe("decidesByVote", () => {
  it.each([
    [DEFAULT_ESCALATION_POLICY.quorum, false],
    [{ approvals: 2, excludeRunStarter: false, rejections: 1 }, true],
    [{ approvals: 1, excludeRunStarter: true, rejections: 1 }, true],
    [{ approvals: 1, excludeRunStarter: false, rejections: 2 }, true],
  ])("%j → %s", (quorum, expected) => {
    expect(decidesByVote(quorum)).toBe(expected);
  });
});

describe("tallyVotes", () => {
  it("needs n distinct approvals", () => {
    expect(tallyVotes(twoOfThem, [approve("ada@x")])).toMatchObject({ outcome: "pending", approvedBy: ["ada@x"] });
    expect(tallyVotes(twoOfThem, [approve("ada@x"), approve("bob@x")])).toMatchObject({ outcome: "approved", approvedBy: ["ada@x", "bob@x"] });
  });

  it("counts one reviewer once, whatever the case of their email", () => {
    expect(tallyVotes(twoOfThem, [approve("ada@x"), approve("ADA@x")])).toMatchObject({ outcome: "pending", approvedBy: ["ada@x"] });
  });

  it("lets one rejection decide by default, even after approvals", () => {
    expect(tallyVotes(twoOfThem, [approve("ada@x"), reject("bob@x")])).toMatchObject({ outcome: "rejected", rejectedBy: ["bob@x"] });
  });

  it("waits for the policy's number of rejections", () => {
    const quorum: QuorumPolicy = { approvals: 3, excludeRunStarter: false, rejections: 2 };
    expect(tallyVotes(quorum, [reject("ada@x"), approve("bob@x")]).outcome).toBe("pending");
    expect(tallyVotes(quorum, [reject("ada@x"), approve("bob@x"), reject("cy@x")]).outcome).toBe("rejected");
  });

  it("is decided by the first count to reach its number; later votes change nothing", () => {
    expect(tallyVotes(twoOfThem, [approve("ada@x"), approve("bob@x"), reject("cy@x")])).toMatchObject({ outcome: "approved", rejectedBy: [] });
    expect(tallyVotes(twoOfThem, [reject("cy@x"), approve("ada@x"), approve("bob@x")])).toMatchObject({ outcome: "rejected", approvedBy: [] });
  });

  it("with the default policy, one approval decides", () => {
    expect(tallyVotes(DEFAULT_ESCALATION_POLICY.quorum, [approve("ada@x")]).outcome).toBe("approved");
  });
});

describe("voteRefusal", () => {
  const base = { quorum: twoOfThem, editsArtifact: false, runStartedBy: "sam@x", votes: [] as CastVote[] };

  it("refuses a second vote by the same reviewer, either way", () => {
    expect(voteRefusal({ ...base, reviewer: "ada@x", vote: "reject", votes: [approve("Ada@X")] })).toBe("you already voted (approved); each reviewer votes once");
    expect(voteRefusal({ ...base, reviewer: "ada@x", vote: "approve", votes: [reject("ada@x")] })).toBe("you already voted (rejected); each reviewer votes once");
  });

  it("refuses the run's starter an approval when the policy excludes them, but lets them reject", () => {
    expect(voteRefusal({ ...base, reviewer: "SAM@x", vote: "approve" })).toMatch(/you started this run/);
    expect(voteRefusal({ ...base, reviewer: "sam@x", vote: "reject" })).toBeNull();
  });

  it("lets the starter approve when the policy does not exclude them, or the starter is unknown", () => {
    expect(voteRefusal({ ...base, quorum: { ...twoOfThem, excludeRunStarter: false }, reviewer: "sam@x", vote: "approve" })).toBeNull();
    expect(approvalRefusalUnderQuorum(twoOfThem, "sam@x", null)).toBeNull();
  });

  it("refuses edit and approve when several must approve, not when one does", () => {
    expect(voteRefusal({ ...base, reviewer: "ada@x", vote: "approve", editsArtifact: true })).toMatch(/edit and approve is not possible when 2 reviewers must approve/);
    expect(voteRefusal({ ...base, quorum: { approvals: 1, excludeRunStarter: true, rejections: 1 }, reviewer: "ada@x", vote: "approve", editsArtifact: true })).toBeNull();
  });

  it("accepts a first vote from anyone else", () => {
    expect(voteRefusal({ ...base, reviewer: "ada@x", vote: "approve", votes: [approve("bob@x")] })).toBeNull();
  });
});

describe("describeTally", () => {
  it("says how many approvals of how many, and whose", () => {
    expect(describeTally(tallyVotes(twoOfThem, []))).toBe("0 of 2 approvals");
    expect(describeTally(tallyVotes(twoOfThem, [approve("alice")]))).toBe("1 of 2 approvals (alice)");
  });

  it("adds the rejections when there are some or several are needed", () => {
    expect(describeTally(tallyVotes({ approvals: 2, excludeRunStarter: false, rejections: 2 }, [approve("alice"), reject("bob")]))).toBe("1 of 2 approvals (alice); 1 of 2 rejections (bob)");
  });
});
