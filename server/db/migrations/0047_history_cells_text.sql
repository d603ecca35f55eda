-- A metric's 24 cells written out as text ('1,2,,4'; blank: not reported), immutable for an int[]: the backtest reads this form.
CREATE FUNCTION history_cells(cells integer[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(array_to_string(cells, ',', ''), '') $$;--> statement-breakpoint
ALTER TABLE "ad_metric_history" ADD COLUMN "spend_cents_text" text GENERATED ALWAYS AS (history_cells(spend_cents)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_metric_history" ADD COLUMN "impressions_text" text GENERATED ALWAYS AS (history_cells(impressions)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_metric_history" ADD COLUMN "clicks_text" text GENERATED ALWAYS AS (history_cells(clicks)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_metric_history" ADD COLUMN "link_clicks_text" text GENERATED ALWAYS AS (history_cells(link_clicks)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_metric_history" ADD COLUMN "leads_text" text GENERATED ALWAYS AS (history_cells(leads)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_metric_history" ADD COLUMN "website_leads_text" text GENERATED ALWAYS AS (history_cells(website_leads)) STORED NOT NULL;