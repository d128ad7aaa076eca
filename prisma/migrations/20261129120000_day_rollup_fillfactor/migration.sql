-- The day roll-ups hold a few rows per project and day, and each row takes every write of its
-- connection to that day (ReferralDay: each tracked item, reward and failure; RewardEventDay: each
-- reward event). PostgreSQL prunes a page's dead row versions only when less free space is left than
-- the fill factor keeps (a tenth of the page at the default of 100), and a busy row soon has a page
-- of its own: its chain of versions grew to about 80 between prunes, and every upsert walked it twice
-- (the conflict check, then the update). In a reward run that walk was about a tenth of PostgreSQL's
-- CPU (perf: heap_hot_search_buffer under ExecCheckIndexConstraints). At 10 a page is pruned once a
-- tenth of it is used, so a chain stays under ten versions; the tables are small, the space is not.
ALTER TABLE "ReferralDay" SET (fillfactor = 10);
ALTER TABLE "RewardEventDay" SET (fillfactor = 10);
