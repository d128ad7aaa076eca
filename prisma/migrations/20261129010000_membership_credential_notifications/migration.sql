-- API key authentication reads the creator's membership (a key works only while its creator is a member,
-- and never above their role): a membership changed or deleted clears every process's credential cache
-- as an API key change does (20261123020000_credential_change_notifications).
CREATE TRIGGER "Membership_credentials_changed" AFTER UPDATE OR DELETE ON "Membership"
  FOR EACH ROW EXECUTE FUNCTION "referloop_credentials_changed"();
