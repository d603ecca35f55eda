CREATE TABLE "meta_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_key" text NOT NULL,
	"ad_account_id" text NOT NULL,
	"object_id" text,
	"object_type" text,
	"kind" text NOT NULL,
	"event" text NOT NULL,
	"subscription_id" text,
	"event_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"note" text,
	"run_slot" timestamp with time zone,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "meta_push_accounts" (
	"ad_account_id" text PRIMARY KEY NOT NULL,
	"desired_key" text,
	"reconciled_key" text,
	"reconciled_at" timestamp with time zone,
	"error" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "meta_subscriptions" (
	"ad_account_id" text NOT NULL,
	"spec_key" text NOT NULL,
	"subscription_id" text NOT NULL,
	"spec" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meta_subscriptions_ad_account_id_spec_key_pk" PRIMARY KEY("ad_account_id","spec_key")
);
--> statement-breakpoint
CREATE TABLE "rule_rechecks" (
	"rule_id" integer PRIMARY KEY NOT NULL,
	"ad_account_id" text NOT NULL,
	"due_at" timestamp with time zone,
	"hourly_because" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rule_rechecks" ADD CONSTRAINT "rule_rechecks_rule_id_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meta_notifications_delivery_key" ON "meta_notifications" USING btree ("delivery_key");--> statement-breakpoint
CREATE INDEX "meta_notifications_account_state_idx" ON "meta_notifications" USING btree ("ad_account_id","state");--> statement-breakpoint
CREATE INDEX "meta_notifications_received_idx" ON "meta_notifications" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "meta_subscriptions_subscription" ON "meta_subscriptions" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "rule_rechecks_due_idx" ON "rule_rechecks" USING btree ("due_at");