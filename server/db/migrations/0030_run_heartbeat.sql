ALTER TABLE "rule_runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rule_runs_running_idx" ON "rule_runs" USING btree ("id") WHERE status = 'running';