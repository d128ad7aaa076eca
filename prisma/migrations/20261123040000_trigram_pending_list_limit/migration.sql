-- The trigram index collects new entries in a pending list (GIN's fastupdate) until the list reaches
-- gin_pending_list_limit (4 MB by default) or a vacuum merges it, and every search reads the whole
-- list. Every new app user and every non-HOT update of one (a reward raises the referrer's
-- successfulReferrals, an indexed column) adds an entry, so after a burst of tracking and rewards a
-- search read about 470 pending pages besides its own 140 (pg CPU per search 1.4 -> 3.1 ms at a
-- million users, bench/README.md). 64 kB keeps the list to 8 pages: a write that fills it merges it,
-- a few hundred entries at a time, and a search reads at most those 8. Prisma does not compare this.
ALTER INDEX "AppUser_clientProvidedId_trgm_idx" SET (gin_pending_list_limit = 64);
