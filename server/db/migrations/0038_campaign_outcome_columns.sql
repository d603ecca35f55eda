ALTER TABLE "campaigns" ADD COLUMN "registrations" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "attendees" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "show_up_rate" numeric(10, 4);--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "cost_per_attendee" numeric(14, 2);--> statement-breakpoint
CREATE INDEX "campaigns_show_up_rate_idx" ON "campaigns" USING btree ("show_up_rate","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_cost_per_attendee_idx" ON "campaigns" USING btree ("cost_per_attendee","campaign_id");--> statement-breakpoint
CREATE INDEX "campaigns_show_up_rate_desc_idx" ON "campaigns" USING btree ("show_up_rate" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_cost_per_attendee_desc_idx" ON "campaigns" USING btree ("cost_per_attendee" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);