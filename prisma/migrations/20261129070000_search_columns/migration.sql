-- Search by e-mail or name (issue 38): the lower-cased attribute as a column the database keeps, so
-- that its index alone answers a search. An index on the expression cannot be read without the
-- table (PostgreSQL wants the expression's column, "attributes", for an index-only read): counting
-- 10,001 matches then read 10,000 heap pages, 80 to 350 ms at 1,000,000 users. As columns, with the
-- id and createdAt carried in their indexes, the matches are counted, deduplicated and sorted by
-- createdAt from the indexes alone.
-- The first 300 characters: a search term has at most 100 (an e-mail compared whole at most 255), and
-- a value may have 1,000 (up to 4,000 bytes), over the 2,704 bytes a B-tree entry can hold.
ALTER TABLE "AppUser" ADD COLUMN "emailSearch" TEXT GENERATED ALWAYS AS (left(lower("attributes"->>'email'), 300)) STORED,
ADD COLUMN "nameSearch" TEXT GENERATED ALWAYS AS (left(lower("attributes"->>'name'), 300)) STORED;

DROP INDEX "AppUser_email_prefix_idx";
DROP INDEX "AppUser_name_prefix_idx";

-- text_pattern_ops compares bytes, so a prefix (LIKE 'term%') is a range whatever the collation;
-- neither it nor INCLUDE can be said in schema.prisma.
CREATE INDEX "AppUser_emailSearch_idx" ON "AppUser" ("projectId", "emailSearch" text_pattern_ops) INCLUDE ("createdAt", "id");
CREATE INDEX "AppUser_nameSearch_idx" ON "AppUser" ("projectId", "nameSearch" text_pattern_ops) INCLUDE ("createdAt", "id");
