-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN "archivedAt" DATETIME;

