ALTER TABLE "rules" ALTER COLUMN "judging" SET DEFAULT '{"maturity_hours":24,"maturity_impressions":1000,"lag_hours":null,"revive_hours":null,"cooldown_hours":24,"attribution_window":null,"carried_over":false}'::jsonb;--> statement-breakpoint
ALTER TABLE "folders" ADD COLUMN "budget_limits" jsonb;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "conditions" jsonb;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "action" jsonb;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "budget_before" integer;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "budget_after" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_activity_budget_once" ON "rule_activity" USING btree ("snapshot_id","ad_id") WHERE action in ('raise_budget', 'lower_budget') and snapshot_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_activity_restore_once" ON "rule_activity" USING btree ("reverses_id") WHERE action = 'restore_budget';