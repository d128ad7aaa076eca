-- The app users' attribute filter (attributes @> '{"key": "value"}'), for large projects.

-- CreateIndex
-- jsonb_path_ops: one hashed entry per key-value path, smaller than jsonb_ops and made for @>.
CREATE INDEX "AppUser_attributes_idx" ON "AppUser" USING GIN ("attributes" jsonb_path_ops);

-- Every new user and every non-HOT update adds entries, as for the trigram index: a small pending
-- list keeps what each filter must read besides its own entries to a few pages (see
-- 20261123040000_trigram_pending_list_limit). Prisma does not compare this.
ALTER INDEX "AppUser_attributes_idx" SET (gin_pending_list_limit = 64);
