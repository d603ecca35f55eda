CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor","id");--> statement-breakpoint
CREATE INDEX "audit_log_meta_ad_account_name_idx" ON "audit_log" USING btree ("meta_ad_account_name","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_log_rule_name_idx" ON "audit_log" USING btree ("rule_name","id");--> statement-breakpoint
CREATE INDEX "rule_activity_action_idx" ON "rule_activity" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "rule_activity_ad_id_sort_idx" ON "rule_activity" USING btree ("ad_id","id");