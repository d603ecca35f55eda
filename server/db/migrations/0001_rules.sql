DROP INDEX "rule_items_rule_idx";--> statement-breakpoint
DROP INDEX "audit_log_timestamp_idx";--> statement-breakpoint
DROP INDEX "audit_log_folder_idx";--> statement-breakpoint
DROP INDEX "audit_log_rule_idx";--> statement-breakpoint
CREATE INDEX "folders_trash_idx" ON "folders" USING btree ("deleted_at") WHERE "folders"."is_deleted";--> statement-breakpoint
CREATE UNIQUE INDEX "rule_items_rule_name_unique" ON "rule_items" USING btree ("rule_id","name");--> statement-breakpoint
CREATE INDEX "rules_trash_folder_idx" ON "rules" USING btree ("folder_id","deleted_at") WHERE "rules"."is_deleted";--> statement-breakpoint
CREATE INDEX "audit_log_timestamp_idx" ON "audit_log" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "audit_log_folder_idx" ON "audit_log" USING btree ("folder_id","timestamp");--> statement-breakpoint
CREATE INDEX "audit_log_rule_idx" ON "audit_log" USING btree ("rule_id","timestamp");