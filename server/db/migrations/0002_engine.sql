CREATE TABLE "sync_state" (
	"name" text PRIMARY KEY NOT NULL,
	"lease_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "account_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"lease_until" timestamp with time zone,
	"fetched_at" timestamp with time zone,
	"data" jsonb,
	"error" text
);
--> statement-breakpoint
DROP INDEX "campaigns_account_idx";--> statement-breakpoint
DROP INDEX "campaigns_topic_idx";--> statement-breakpoint
DROP INDEX "campaigns_event_date_idx";--> statement-breakpoint
DROP INDEX "campaigns_end_date_idx";--> statement-breakpoint
DROP INDEX "campaigns_spend_idx";--> statement-breakpoint
DROP INDEX "campaigns_cpl_idx";--> statement-breakpoint
DROP INDEX "rule_activity_created_idx";--> statement-breakpoint
DROP INDEX "rule_activity_rule_idx";--> statement-breakpoint
DROP INDEX "rule_activity_folder_idx";--> statement-breakpoint
ALTER TABLE "campaigns" ALTER COLUMN "spend" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "campaigns" ALTER COLUMN "spend" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "website_leads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "actions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "meta_ad_accounts" ADD COLUMN "account_status" integer;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "state" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "snapshot_id" integer;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "actor_id" integer;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "note" text;--> statement-breakpoint
CREATE UNIQUE INDEX "account_snapshots_account_slot_unique" ON "account_snapshots" USING btree ("ad_account_id","slot");--> statement-breakpoint
CREATE INDEX "account_snapshots_slot_idx" ON "account_snapshots" USING btree ("slot");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_ad_account_id_meta_ad_accounts_ad_account_id_fk" FOREIGN KEY ("ad_account_id") REFERENCES "public"."meta_ad_accounts"("ad_account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD CONSTRAINT "rule_activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_name_idx" ON "campaigns" USING btree ("campaign_name","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_is_webinar_idx" ON "campaigns" USING btree ("is_webinar","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_event_time_idx" ON "campaigns" USING btree ("event_time","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_leads_idx" ON "campaigns" USING btree ("leads","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_ctr_idx" ON "campaigns" USING btree ("ctr","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_cpc_idx" ON "campaigns" USING btree ("cpc","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_updated_idx" ON "campaigns" USING btree ("updated_at","campaign_id");--> statement-breakpoint
CREATE INDEX "rule_activity_slot_idx" ON "rule_activity" USING btree ("rule_id","slot");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_activity_turn_off_once" ON "rule_activity" USING btree ("snapshot_id","ad_id") WHERE action in ('turn_off_ad', 'turn_off_campaign') and snapshot_id is not null;--> statement-breakpoint
CREATE INDEX "rule_runs_slot_idx" ON "rule_runs" USING btree ("slot");--> statement-breakpoint
CREATE INDEX "campaigns_account_idx" ON "campaigns" USING btree ("ad_account_id","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_topic_idx" ON "campaigns" USING btree ("topic","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_event_date_idx" ON "campaigns" USING btree ("event_date","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_end_date_idx" ON "campaigns" USING btree ("end_date","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_spend_idx" ON "campaigns" USING btree ("spend","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_cpl_idx" ON "campaigns" USING btree ("cpl","campaign_id");--> statement-breakpoint
CREATE INDEX "rule_activity_created_idx" ON "rule_activity" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "rule_activity_rule_idx" ON "rule_activity" USING btree ("rule_id","created_at");--> statement-breakpoint
CREATE INDEX "rule_activity_folder_idx" ON "rule_activity" USING btree ("folder_id","created_at");