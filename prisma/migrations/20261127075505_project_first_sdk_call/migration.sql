-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "firstSdkCallAt" TIMESTAMP(3);
