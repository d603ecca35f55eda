-- Lists at scale (docs/decisions.md, "Lists at scale"): the Log's names kept once each
-- (audit_log_names) and its free text and the Activity entry's own text in one searchable column
-- each; the Activity's folder and rule names kept on the entry by triggers for its Client / Ad
-- account and Rule sorts; partial indexes over finished entries; trigram indexes for the searches.
CREATE TABLE "audit_log_names" (
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"name_lower" text GENERATED ALWAYS AS (lower(name)) STORED,
	CONSTRAINT "audit_log_names_kind_name_pk" PRIMARY KEY("kind","name")
);
--> statement-breakpoint
DROP INDEX "audit_log_folder_idx";
--> statement-breakpoint
DROP INDEX "audit_log_rule_idx";
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "search_text" text GENERATED ALWAYS AS (action || E'\n' || changes_text) STORED;
--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "search_text" text GENERATED ALWAYS AS (coalesce(ad_id, '') || E'\n' || action || E'\n' || reason::text) STORED;
--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "folder_sort" text;
--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "rule_sort" text;
--> statement-breakpoint
-- The names of each existing entry's folder (its rule's, else the one it was written with) and rule.
UPDATE rule_activity ra SET rule_sort = r.name, folder_sort = f.name
FROM rule_activity x
LEFT JOIN rules r ON r.id = x.rule_id
LEFT JOIN folders f ON f.id = coalesce(r.folder_id, x.folder_id)
WHERE x.id = ra.id AND (r.id IS NOT NULL OR f.id IS NOT NULL);
--> statement-breakpoint
INSERT INTO audit_log_names (kind, name)
SELECT DISTINCT kind, n FROM audit_log,
  LATERAL (VALUES ('actor', actor), ('folder', folder_name), ('account', meta_ad_account_name), ('rule', rule_name)) AS v(kind, n)
WHERE n IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE INDEX "rule_activity_done_created_idx" ON "rule_activity" USING btree ("created_at","id") WHERE state = 'done';
--> statement-breakpoint
CREATE INDEX "rule_activity_done_folder_sort_idx" ON "rule_activity" USING btree ("folder_sort","id") WHERE state = 'done';
--> statement-breakpoint
CREATE INDEX "rule_activity_done_rule_sort_idx" ON "rule_activity" USING btree ("rule_sort","id") WHERE state = 'done';
--> statement-breakpoint
CREATE INDEX "audit_log_folder_idx" ON "audit_log" USING btree ("folder_id","timestamp","id");
--> statement-breakpoint
CREATE INDEX "audit_log_rule_idx" ON "audit_log" USING btree ("rule_id","timestamp","id");
--> statement-breakpoint
-- Whether any of the texts contains the pattern (ILIKE): the searches' recheck of the columns behind
-- a search text. A function the planner cannot see into, declared expensive, so it walks a sort
-- index filtering every entry only when the search matches many entries, and otherwise takes the
-- entries the indexes find and sorts them; at run time it is evaluated only where the cheap
-- search-text match already holds.
CREATE FUNCTION list_text_matches(texts text[], pattern text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 10000 AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM unnest(texts) AS t WHERE t ILIKE pattern);
END
$$;
--> statement-breakpoint
-- Each statement's new Log entries add the names they hold (a bulk insert does it once).
CREATE FUNCTION audit_log_remember_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_log_names (kind, name)
  SELECT DISTINCT kind, n FROM new_entries,
    LATERAL (VALUES ('actor', actor), ('folder', folder_name), ('account', meta_ad_account_name), ('rule', rule_name)) AS v(kind, n)
  WHERE n IS NOT NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_remember_names AFTER INSERT ON audit_log
REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION audit_log_remember_names();
--> statement-breakpoint
-- A new Activity entry, or one whose rule or folder changed (a deleted rule sets rule_id null),
-- takes the current names.
CREATE FUNCTION rule_activity_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT r.name INTO NEW.rule_sort FROM rules r WHERE r.id = NEW.rule_id;
  SELECT f.name INTO NEW.folder_sort FROM folders f
  WHERE f.id = coalesce((SELECT r.folder_id FROM rules r WHERE r.id = NEW.rule_id), NEW.folder_id);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rule_activity_sort_keys BEFORE INSERT OR UPDATE OF rule_id, folder_id ON rule_activity
FOR EACH ROW EXECUTE FUNCTION rule_activity_sort_keys();
--> statement-breakpoint
-- A renamed folder renames itself on its entries: those of its rules, and those whose rule is gone.
CREATE FUNCTION folders_rename_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rule_activity SET folder_sort = NEW.name
  WHERE (rule_id IN (SELECT id FROM rules WHERE folder_id = NEW.id) OR (rule_id IS NULL AND folder_id = NEW.id))
    AND folder_sort IS DISTINCT FROM NEW.name;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER folders_rename_activity AFTER UPDATE OF name ON folders
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION folders_rename_activity();
--> statement-breakpoint
-- A folder deleted for good leaves the entries that still name it without a folder.
CREATE FUNCTION folders_delete_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rule_activity SET folder_sort = NULL WHERE rule_id IS NULL AND folder_id = OLD.id AND folder_sort IS NOT NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER folders_delete_activity AFTER DELETE ON folders
FOR EACH ROW EXECUTE FUNCTION folders_delete_activity();
--> statement-breakpoint
-- A renamed rule, or one moved to another folder, updates its entries.
CREATE FUNCTION rules_rename_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rule_activity
  SET rule_sort = NEW.name, folder_sort = (SELECT f.name FROM folders f WHERE f.id = NEW.folder_id)
  WHERE rule_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rules_rename_activity AFTER UPDATE OF name, folder_id ON rules
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.folder_id IS DISTINCT FROM NEW.folder_id)
EXECUTE FUNCTION rules_rename_activity();
--> statement-breakpoint
-- The Log's six per-column trigram indexes of 0007 give way to the names table and the search text.
DROP INDEX IF EXISTS audit_log_actor_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS audit_log_folder_name_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS audit_log_account_name_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS audit_log_rule_name_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS audit_log_action_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS audit_log_changes_trgm_idx;
--> statement-breakpoint
-- The searches' trigram indexes where the database offers pg_trgm (PostgreSQL 13+: a trusted
-- extension; PGlite loads it at start, server/db/client.ts): the Log's names and free text, the
-- Activity entry's own text, and the small tables whose names the Activity's search looks up first.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS audit_log_names_trgm_idx ON audit_log_names USING gin (name_lower gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS audit_log_search_trgm_idx ON audit_log USING gin (search_text gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS rule_activity_search_trgm_idx ON rule_activity USING gin (search_text gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS rules_name_trgm_idx ON rules USING gin (name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS folders_name_trgm_idx ON folders USING gin (name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS meta_ad_accounts_name_trgm_idx ON meta_ad_accounts USING gin (account_name gin_trgm_ops);
  END IF;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pg_trgm not available (%); list searches will scan', SQLERRM;
END
$$;
