CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"accesses" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"code" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"group_id" integer,
	"invited_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_groups" (
	"user_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_groups_user_id_group_id_pk" PRIMARY KEY("user_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"is_superuser" boolean DEFAULT false NOT NULL,
	"is_staff" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"date_joined" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"campaign_id" bigint PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"campaign_name" text NOT NULL,
	"status" text,
	"effective_status" text,
	"topic" text,
	"is_webinar" boolean,
	"event_date" date,
	"event_time" text,
	"spend" numeric(14, 2),
	"leads" integer DEFAULT 0 NOT NULL,
	"impressions" bigint,
	"clicks" bigint,
	"link_clicks" bigint,
	"cpl" numeric(14, 2),
	"ctr" numeric(10, 4),
	"cpc" numeric(14, 4),
	"end_date" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meta_ad_accounts" (
	"ad_account_id" text PRIMARY KEY NOT NULL,
	"account_name" text NOT NULL,
	"timezone_name" text DEFAULT 'UTC' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"actor" text DEFAULT '' NOT NULL,
	"folder_id" integer,
	"folder_name" text,
	"meta_ad_account_name" text,
	"rule_id" integer,
	"rule_name" text,
	"action" text NOT NULL,
	"changes_text" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"client_type" text NOT NULL,
	"plan" text NOT NULL,
	"ad_account_id" text NOT NULL,
	"demio_credentials" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"values" jsonb NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"schedule" jsonb NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"alert_schedule" jsonb NOT NULL,
	"last_alert_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rule_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rule_id" integer,
	"folder_id" integer,
	"action" text NOT NULL,
	"ad_id" text,
	"object_type" text,
	"reason" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"slot" timestamp with time zone,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rule_exemptions" (
	"rule_id" integer NOT NULL,
	"object_id" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rule_exemptions_rule_id_object_id_pk" PRIMARY KEY("rule_id","object_id")
);
--> statement-breakpoint
CREATE TABLE "rule_runs" (
	"rule_id" integer NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"kind" text DEFAULT 'run' NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "rule_runs_rule_id_slot_kind_pk" PRIMARY KEY("rule_id","slot","kind")
);
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_ad_account_id_meta_ad_accounts_ad_account_id_fk" FOREIGN KEY ("ad_account_id") REFERENCES "public"."meta_ad_accounts"("ad_account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_items" ADD CONSTRAINT "rule_items_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_activity" ADD CONSTRAINT "rule_activity_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_exemptions" ADD CONSTRAINT "rule_exemptions_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_exemptions" ADD CONSTRAINT "rule_exemptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_groups_group_idx" ON "user_groups" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "campaigns_account_idx" ON "campaigns" USING btree ("ad_account_id");--> statement-breakpoint
CREATE INDEX "campaigns_topic_idx" ON "campaigns" USING btree ("topic");--> statement-breakpoint
CREATE INDEX "campaigns_event_date_idx" ON "campaigns" USING btree ("event_date");--> statement-breakpoint
CREATE INDEX "campaigns_end_date_idx" ON "campaigns" USING btree ("end_date");--> statement-breakpoint
CREATE INDEX "campaigns_spend_idx" ON "campaigns" USING btree ("spend");--> statement-breakpoint
CREATE INDEX "campaigns_cpl_idx" ON "campaigns" USING btree ("cpl");--> statement-breakpoint
CREATE INDEX "meta_ad_accounts_name_idx" ON "meta_ad_accounts" USING btree (lower("account_name"));--> statement-breakpoint
CREATE INDEX "audit_log_timestamp_idx" ON "audit_log" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "audit_log_folder_idx" ON "audit_log" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "audit_log_rule_idx" ON "audit_log" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "folders_live_created_idx" ON "folders" USING btree ("is_deleted","created_at","id");--> statement-breakpoint
CREATE INDEX "folders_name_idx" ON "folders" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "folders_account_idx" ON "folders" USING btree ("ad_account_id");--> statement-breakpoint
CREATE INDEX "rule_items_rule_idx" ON "rule_items" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "rules_folder_idx" ON "rules" USING btree ("folder_id","is_deleted");--> statement-breakpoint
CREATE INDEX "rules_active_idx" ON "rules" USING btree ("is_active","is_deleted");--> statement-breakpoint
CREATE INDEX "rule_activity_created_idx" ON "rule_activity" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "rule_activity_rule_idx" ON "rule_activity" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "rule_activity_folder_idx" ON "rule_activity" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "rule_activity_ad_idx" ON "rule_activity" USING btree ("ad_id");