CREATE TABLE "lead_outcomes" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer NOT NULL,
	"lead_key" text NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"source_ref" text DEFAULT '' NOT NULL,
	"ad_id" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_outcomes" ADD CONSTRAINT "lead_outcomes_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_outcomes_once" ON "lead_outcomes" USING btree ("folder_id","source","lead_key","kind","source_ref");--> statement-breakpoint
CREATE INDEX "lead_outcomes_folder_lead_idx" ON "lead_outcomes" USING btree ("folder_id","lead_key");--> statement-breakpoint
CREATE INDEX "lead_outcomes_folder_occurred_idx" ON "lead_outcomes" USING btree ("folder_id","occurred_at");