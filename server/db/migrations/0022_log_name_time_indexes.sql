DROP INDEX "audit_log_folder_name_idx";--> statement-breakpoint
CREATE INDEX "audit_log_actor_time_idx" ON "audit_log" USING btree ("actor","timestamp","id");--> statement-breakpoint
CREATE INDEX "audit_log_folder_name_time_idx" ON "audit_log" USING btree ("folder_name","timestamp","id");--> statement-breakpoint
CREATE INDEX "audit_log_account_name_time_idx" ON "audit_log" USING btree ("meta_ad_account_name","timestamp","id");--> statement-breakpoint
CREATE INDEX "audit_log_rule_name_time_idx" ON "audit_log" USING btree ("rule_name","timestamp","id");--> statement-breakpoint
CREATE INDEX "audit_log_folder_name_idx" ON "audit_log" USING btree ("folder_name","id");