CREATE INDEX "campaign_events_campaign_idx" ON "campaign_events" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "lead_outcomes_occurred_idx" ON "lead_outcomes" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "lead_people_created_idx" ON "lead_people" USING btree ("created_time");--> statement-breakpoint
-- The campaigns list shows each campaign's date chosen by hand (server/http/pageCache.ts forgets kept pages on it).
CREATE TRIGGER campaign_events_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "campaign_events"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
