CREATE INDEX "audit_log_action_time_idx" ON "audit_log" USING btree ("action","timestamp","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_time_desc_idx" ON "audit_log" USING btree ("action","timestamp" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_time_desc_idx" ON "audit_log" USING btree ("actor","timestamp" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_action_idx" ON "audit_log" USING btree ("actor","action","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_folder_name_idx" ON "audit_log" USING btree ("actor","folder_name","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_rule_name_idx" ON "audit_log" USING btree ("actor","rule_name","id");