-- AlterTable
ALTER TABLE "Escalation" ALTER COLUMN "artifactId" DROP NOT NULL;

