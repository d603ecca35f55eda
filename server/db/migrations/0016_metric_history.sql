CREATE TABLE "ad_history_names" (
	"ad_id" text PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"ad_name" text NOT NULL,
	"campaign_id" text NOT NULL,
	"campaign_name" text NOT NULL,
	"campaign_daily_budget" integer,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ad_metric_history" (
	"ad_account_id" text NOT NULL,
	"day" date NOT NULL,
	"ad_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"spend_cents" integer[],
	"impressions" integer[],
	"clicks" integer[],
	"link_clicks" integer[],
	"leads" integer[],
	"website_leads" integer[],
	"read_mask" integer DEFAULT 0 NOT NULL,
	"settled_mask" integer DEFAULT 0 NOT NULL,
	"on_mask" integer DEFAULT 0 NOT NULL,
	"campaign_on_mask" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_metric_history_ad_account_id_day_ad_id_pk" PRIMARY KEY("ad_account_id","day","ad_id")
);
--> statement-breakpoint
CREATE INDEX "ad_history_names_account_idx" ON "ad_history_names" USING btree ("ad_account_id");--> statement-breakpoint
CREATE INDEX "ad_metric_history_day_idx" ON "ad_metric_history" USING btree ("day");