ALTER TABLE "webhook_deliveries" ADD COLUMN "destination_id" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "destination_name" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "folder_id" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "answer_code" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_destination_idx" ON "webhook_deliveries" USING btree ("destination_id","id");