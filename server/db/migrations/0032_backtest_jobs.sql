CREATE TABLE "backtest_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"summary" jsonb,
	"error" text,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "backtest_pauses" (
	"job_id" text NOT NULL,
	"position" integer NOT NULL,
	"pause" jsonb NOT NULL,
	CONSTRAINT "backtest_pauses_job_id_position_pk" PRIMARY KEY("job_id","position")
);
--> statement-breakpoint
ALTER TABLE "backtest_jobs" ADD CONSTRAINT "backtest_jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backtest_pauses" ADD CONSTRAINT "backtest_pauses_job_id_backtest_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."backtest_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backtest_jobs_owner_idx" ON "backtest_jobs" USING btree ("owner_id","started_at");