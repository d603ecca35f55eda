ALTER TABLE "groups" ADD COLUMN "rule_folder_ids" integer[];--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "approval_limit" numeric;