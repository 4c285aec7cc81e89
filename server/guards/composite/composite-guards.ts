import { failed, passed, type Guard, type GuardCallOptions, type GuardResult } from "../../engine";

/** A member's own call key (`<guard key>/<n>`, 1-based), so two judges in one composite never share a recorded answer. */
function memberOptions(options: GuardCallOptions | undefined, index: number): GuardCallOptions | undefined {
  return options?.callKey === undefined ? options : { ...options, callKey: `${options.callKey}/${index + 1}` };
}

/**
 * Every member must pass, checked in order; the first failure is the verdict (so a fatal
 * member makes the whole guard fatal) and later members are not run.
 */
export function createAllOfGuard(members: readonly Guard[]): Guard {
  return {
    async validate(artifact, dependencies, options) {
      const notes: string[] = [];
      for (const [index, member] of members.entries()) {
        const result = await member.validate(artifact, dependencies, memberOptions(options, index));
        if (!result.passed) return { ...result, feedback: `Guard ${index + 1} of ${members.length}: ${result.feedback}` };
        if (result.feedback) notes.push(result.feedback);
      }
      return passed(notes.join("\n"));
    },
  };
}

/**
 * Passes as soon as one member passes, in order. When none does, the feedback lists every
 * member's, and the verdict is fatal if any member's was: a fatal finding is never hidden.
 */
export function createAnyOfGuard(members: readonly Guard[]): Guard {
  return {
    async validate(artifact, dependencies, options) {
      const results: GuardResult[] = [];
      for (const [index, member] of members.entries()) {
        const result = await member.validate(artifact, dependencies, memberOptions(options, index));
        if (result.passed) return result;
        results.push(result);
      }
      const feedback = `No alternative passed:\n${results.map((result, i) => `- option ${i + 1}: ${result.feedback}`).join("\n")}`;
      const fatal = results.find((result) => result.fatal);
      return fatal ? { passed: false, fatal: true, feedback, ...(fatal.awaiting ? { awaiting: fatal.awaiting } : {}) } : failed(feedback);
    },
  };
}
