import type { Db } from "@/server/persistence/db";

const HISTORY = 100;

/** The saved routing versions, newest (the one in force) first, without their text. */
export async function listRoutingVersions(db: Db) {
  return db.routingVersion.findMany({ orderBy: { version: "desc" }, take: HISTORY, select: { version: true, createdBy: true, comment: true, createdAt: true } });
}

/** One version's text, or the newest when `version` is absent; null when none was saved. */
export async function getRoutingVersion(db: Db, version?: number) {
  return db.routingVersion.findFirst({
    where: version === undefined ? {} : { version },
    orderBy: { version: "desc" },
    select: { version: true, source: true, createdBy: true, comment: true, createdAt: true },
  });
}
