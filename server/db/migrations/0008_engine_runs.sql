ALTER TABLE "rules" ADD COLUMN "notify_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "run_id" integer;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD COLUMN "mail" json;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "id" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "trigger" text;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "counts" jsonb;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "snapshot_id" integer;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "decided_by" integer;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rule_activity_mail_once" ON "rule_activity" USING btree ("rule_id","slot","action") WHERE action in ('alert_sent', 'run_held') and slot is not null;--> statement-breakpoint
CREATE INDEX "rule_activity_run_idx" ON "rule_activity" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rule_runs_id_unique" ON "rule_runs" USING btree ("id");--> statement-breakpoint
CREATE INDEX "rule_runs_rule_started_idx" ON "rule_runs" USING btree ("rule_id","started_at");