CREATE TABLE "meta_connection_accounts" (
	"connection_id" integer NOT NULL,
	"ad_account_id" text NOT NULL,
	"account_name" text NOT NULL,
	CONSTRAINT "meta_connection_accounts_connection_id_ad_account_id_pk" PRIMARY KEY("connection_id","ad_account_id")
);
--> statement-breakpoint
CREATE TABLE "meta_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"source" text DEFAULT 'added' NOT NULL,
	"token" text,
	"system_user_id" text,
	"system_user_name" text,
	"business_id" text,
	"business_name" text,
	"token_type" text,
	"scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
ALTER TABLE "meta_connection_accounts" ADD CONSTRAINT "meta_connection_accounts_connection_id_meta_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."meta_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_connections" ADD CONSTRAINT "meta_connections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meta_connection_accounts_account_idx" ON "meta_connection_accounts" USING btree ("ad_account_id","connection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meta_connections_environment_unique" ON "meta_connections" USING btree ("source") WHERE source = 'environment';--> statement-breakpoint
CREATE UNIQUE INDEX "meta_connections_system_user_unique" ON "meta_connections" USING btree ("system_user_id") WHERE source = 'added';--> statement-breakpoint
-- Which connection serves each ad account it reaches: the oldest added one, else the environment's
-- (server/db/schema/connections.ts); '*' is the environment token's health scope (TOKEN_SCOPE).
CREATE VIEW "ad_account_connections" AS
  SELECT DISTINCT ON (ca.ad_account_id) ca.ad_account_id, ca.connection_id,
    CASE WHEN c.source = 'environment' THEN '*' ELSE 'connection:' || c.id END AS health_scope
  FROM "meta_connection_accounts" ca JOIN "meta_connections" c ON c.id = ca.connection_id
  ORDER BY ca.ad_account_id, c.source = 'environment', c.id;--> statement-breakpoint
-- The folder list shows each account's token problems through that view (server/http/pageCache.ts forgets kept pages on them).
CREATE TRIGGER meta_connections_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "meta_connections"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();--> statement-breakpoint
CREATE TRIGGER meta_connection_accounts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "meta_connection_accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
