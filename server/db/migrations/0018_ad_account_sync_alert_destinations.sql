CREATE TABLE "alert_destinations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"folder_id" integer,
	"url" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meta_ad_accounts" ADD COLUMN "campaigns_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "meta_ad_accounts" ADD COLUMN "campaign_sync_error" text;--> statement-breakpoint
CREATE INDEX "alert_destinations_folder_idx" ON "alert_destinations" USING btree ("folder_id");