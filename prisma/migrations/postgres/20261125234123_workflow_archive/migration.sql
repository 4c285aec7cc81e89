-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "archivedAt" TIMESTAMP(3);

