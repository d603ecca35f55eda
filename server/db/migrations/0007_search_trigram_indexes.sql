-- The Log's search ("contains" over six text columns) through trigram indexes, where the database
-- offers pg_trgm (PostgreSQL 13+: a trusted extension; the embedded PGlite loads it at start).
-- Elsewhere nothing happens and the search scans. The audit log is written once per user change,
-- so six small GIN indexes cost little next to a search that would otherwise read every entry.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS audit_log_actor_trgm_idx ON audit_log USING gin (actor gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_folder_name_trgm_idx ON audit_log USING gin (folder_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_account_name_trgm_idx ON audit_log USING gin (meta_ad_account_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_rule_name_trgm_idx ON audit_log USING gin (rule_name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_action_trgm_idx ON audit_log USING gin (action gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_changes_trgm_idx ON audit_log USING gin (changes_text gin_trgm_ops);
  END IF;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pg_trgm not available (%); log search will scan', SQLERRM;
END
$$;
