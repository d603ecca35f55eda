-- The Activity's Client / Ad account sort joins the entry's folder by reference (docs/bench.md,
-- "Mixed traffic"): folders walked by name, each folder's entries by id. A folder rename no longer
-- rewrites the name kept on each of its entries (folder_sort, ~500 rows with all their indexes per
-- rename), and the column goes. The entry's folder_id is the folder it lists under: its rule's
-- (made so on insert and when a rule moves), else the one it was written with, null once that
-- folder is deleted for good.
DROP TRIGGER IF EXISTS folders_rename_activity ON folders;
--> statement-breakpoint
DROP FUNCTION IF EXISTS folders_rename_activity();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rule_activity_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rule_folder integer;
BEGIN
  SELECT r.name, r.folder_id INTO NEW.rule_sort, rule_folder FROM rules r WHERE r.id = NEW.rule_id;
  IF rule_folder IS NOT NULL THEN
    NEW.folder_id := rule_folder;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rules_rename_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rule_activity SET rule_sort = NEW.name, folder_id = NEW.folder_id WHERE rule_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION folders_delete_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rule_activity SET folder_id = NULL WHERE folder_id = OLD.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
UPDATE rule_activity ra SET folder_id = r.folder_id
FROM rules r
WHERE r.id = ra.rule_id AND ra.folder_id IS DISTINCT FROM r.folder_id;
--> statement-breakpoint
UPDATE rule_activity ra SET folder_id = NULL
WHERE ra.folder_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM folders f WHERE f.id = ra.folder_id);
--> statement-breakpoint
DROP INDEX "rule_activity_done_folder_sort_idx";
--> statement-breakpoint
ALTER TABLE "rule_activity" DROP COLUMN "folder_sort";
--> statement-breakpoint
CREATE INDEX "folders_name_sort_idx" ON "folders" USING btree ("name","id");
--> statement-breakpoint
CREATE INDEX "rule_activity_done_folder_idx" ON "rule_activity" USING btree ("folder_id","id") WHERE state = 'done';
--> statement-breakpoint
-- The entries of a folder that is gone: the first (or, descending, last) part of the folder sort.
CREATE INDEX "rule_activity_done_no_folder_idx" ON "rule_activity" USING btree ("id") WHERE state = 'done' and folder_id is null;
