-- Every change to what the team's lists show tells each server process to forget the list pages it
-- keeps in memory (server/http/pageCache.ts). Statement-level: one notification per statement, sent
-- when the transaction commits, whoever wrote (an API process, a worker, a script, psql).
-- Tables no list shows stay quiet, so a sign-in or an engine run's bookkeeping does not empty the
-- pages: sessions, refresh_tokens, rate_limit_counters, login_failures, password_resets,
-- email_changes, sync_state, account_snapshots (tests/server/http/pageCache.test.ts checks that
-- every table is one or the other, and that no cached list reads a quiet one).
CREATE OR REPLACE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('data_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER folders_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "folders"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER rules_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rules"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER rule_items_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rule_items"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER meta_ad_accounts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "meta_ad_accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER campaigns_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "campaigns"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER audit_log_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER audit_log_names_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "audit_log_names"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER rule_activity_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rule_activity"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER rule_runs_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rule_runs"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER rule_exemptions_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rule_exemptions"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER users_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER groups_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "groups"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER user_groups_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_groups"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER invitations_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "invitations"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
