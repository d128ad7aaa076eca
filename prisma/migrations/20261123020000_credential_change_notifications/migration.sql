-- Each app process caches API keys, projects and the set of origins projects allow, briefly, for authentication
-- and CORS (src/server/db/credential-cache.ts). Any change to either table, by any writer and cascades included,
-- tells every process listening to drop its cache once the change commits; a new project too, whose origins
-- join the set. A write of only the usage time or the update time is no change.
CREATE FUNCTION "referloop_credentials_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) - 'lastUsedAt' - 'updatedAt') = (to_jsonb(NEW) - 'lastUsedAt' - 'updatedAt') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('referloop_credentials', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER "ApiKey_credentials_changed" AFTER UPDATE OR DELETE ON "ApiKey"
  FOR EACH ROW EXECUTE FUNCTION "referloop_credentials_changed"();

CREATE TRIGGER "Project_credentials_changed" AFTER INSERT OR UPDATE OR DELETE ON "Project"
  FOR EACH ROW EXECUTE FUNCTION "referloop_credentials_changed"();
