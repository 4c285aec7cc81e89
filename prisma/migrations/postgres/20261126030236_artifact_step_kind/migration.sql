-- AlterTable
ALTER TABLE "Artifact" ADD COLUMN     "stepKind" TEXT NOT NULL DEFAULT 'action_pair';

