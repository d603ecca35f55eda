CREATE INDEX "campaigns_topic_desc_idx" ON "campaigns" USING btree ("topic" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_is_webinar_desc_idx" ON "campaigns" USING btree ("is_webinar" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_event_date_desc_idx" ON "campaigns" USING btree ("event_date" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_event_time_desc_idx" ON "campaigns" USING btree ("event_time" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_end_date_desc_idx" ON "campaigns" USING btree ("end_date" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_cpl_desc_idx" ON "campaigns" USING btree ("cpl" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_ctr_desc_idx" ON "campaigns" USING btree ("ctr" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaigns_cpc_desc_idx" ON "campaigns" USING btree ("cpc" DESC NULLS LAST,"campaign_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "meta_ad_accounts_account_name_idx" ON "meta_ad_accounts" USING btree ("account_name","ad_account_id");