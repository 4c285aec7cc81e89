import type { Db } from "@/server/persistence/db";
import type { DocumentProblem } from "@/server/workflows/document";
import { parseAgainstGroups } from "./routing-in-force";

/** The problems of a draft routing document against the groups that exist (none: it may be saved). */
export async function validateRouting(db: Db, source: string): Promise<{ problems: DocumentProblem[]; rules: number }> {
  const parsed = await parseAgainstGroups(db, source);
  return parsed.ok ? { problems: [], rules: parsed.document.rules.length } : { problems: parsed.problems, rules: 0 };
}
