-- A reward's event and activity entry lose their foreign key to the project (issue 33). Each check
-- locked the project's row FOR KEY SHARE, so every concurrent claim of a project made a new MultiXact
-- on that one row and wrote it again in WAL; without them the reward ran 5 to 7% faster (A/B, four
-- rounds). What goes with what:
--   RewardEvent: with its tracking item (RewardEvent_trackingId_fkey, as before), and otherwise with
--   its project, which deleteProject does itself;
--   Activity: with its project, which deleteProject does itself (its (projectId, createdAt) index).
-- deleteProject deletes them after the project, in its transaction: deleting the project's tracking
-- items waits for claims in flight on them, so what those claims wrote has committed by then, and a
-- claim that starts later finds no item and writes nothing.
ALTER TABLE "RewardEvent" DROP CONSTRAINT "RewardEvent_projectId_fkey";
ALTER TABLE "Activity" DROP CONSTRAINT "Activity_projectId_fkey";
