ALTER TABLE "folders" ADD COLUMN "alert_emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD COLUMN "last_delivery_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD COLUMN "last_delivery_source" text;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD COLUMN "last_answer_code" integer;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD COLUMN "last_delivery_error" text;--> statement-breakpoint
ALTER TABLE "alert_destinations" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;