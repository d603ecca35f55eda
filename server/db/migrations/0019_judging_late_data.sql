CREATE TABLE "account_day_readings" (
	"ad_account_id" text NOT NULL,
	"day" text NOT NULL,
	"age_hours" integer NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"spend" double precision NOT NULL,
	"clicks" double precision NOT NULL,
	"leads" double precision NOT NULL,
	CONSTRAINT "account_day_readings_ad_account_id_day_age_hours_pk" PRIMARY KEY("ad_account_id","day","age_hours")
);
--> statement-breakpoint
CREATE TABLE "account_health" (
	"ad_account_id" text NOT NULL,
	"check" text NOT NULL,
	"state" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"alerted_at" timestamp with time zone,
	CONSTRAINT "account_health_ad_account_id_check_pk" PRIMARY KEY("ad_account_id","check")
);
--> statement-breakpoint
CREATE TABLE "object_switches" (
	"id" serial PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"object_id" text NOT NULL,
	"turned" text NOT NULL,
	"source" text NOT NULL,
	"rule_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"follows_id" integer,
	"leads" double precision,
	"spend" double precision
);
--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "judging" jsonb DEFAULT '{"maturity_hours":24,"maturity_impressions":1000,"lag_hours":null,"revive_hours":null,"cooldown_hours":24,"carried_over":false}'::jsonb NOT NULL;--> statement-breakpoint
-- Rules made before the judging settings keep judging exactly as they did (no maturity, no cool-down);
-- the editor says so until someone saves the rule's judging settings.
UPDATE "rules" SET "judging" = '{"maturity_hours":0,"maturity_impressions":0,"lag_hours":null,"revive_hours":null,"cooldown_hours":0,"carried_over":true}'::jsonb;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "failures_counted_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "reverses_id" integer;--> statement-breakpoint
CREATE INDEX "account_health_problem_idx" ON "account_health" USING btree ("state") WHERE state <> 'ok';--> statement-breakpoint
CREATE INDEX "object_switches_object_idx" ON "object_switches" USING btree ("object_id","at");--> statement-breakpoint
CREATE INDEX "object_switches_at_idx" ON "object_switches" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "object_switches_follows_once" ON "object_switches" USING btree ("follows_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_activity_revive_once" ON "rule_activity" USING btree ("reverses_id") WHERE action = 'revive_ad';--> statement-breakpoint
CREATE UNIQUE INDEX "rule_activity_flapping_once" ON "rule_activity" USING btree ("ad_id","slot") WHERE action = 'flapping';--> statement-breakpoint
-- The folder rows show the accounts' health (server/http/pageCache.ts forgets kept pages on it);
-- the on/off history and the day readings are the engine's and the sync's bookkeeping: quiet.
CREATE TRIGGER account_health_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "account_health"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
