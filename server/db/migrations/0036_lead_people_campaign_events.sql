CREATE TABLE "campaign_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer NOT NULL,
	"ad_account_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"event_id" integer NOT NULL,
	"date_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"participants_read_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_people" (
	"lead_id" text PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"ad_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"form_id" text,
	"email_sha256" text,
	"created_time" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_events" ADD CONSTRAINT "campaign_events_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_events_once" ON "campaign_events" USING btree ("folder_id","campaign_id","date_id");--> statement-breakpoint
CREATE INDEX "campaign_events_account_idx" ON "campaign_events" USING btree ("ad_account_id","starts_at");--> statement-breakpoint
CREATE INDEX "lead_people_ad_idx" ON "lead_people" USING btree ("ad_account_id","ad_id","created_time");--> statement-breakpoint
CREATE INDEX "lead_people_email_idx" ON "lead_people" USING btree ("ad_account_id","email_sha256");