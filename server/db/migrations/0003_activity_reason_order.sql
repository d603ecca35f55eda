ALTER TABLE "rule_activity" ALTER COLUMN "reason" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "rule_activity" ALTER COLUMN "reason" SET DEFAULT '{}'::json;