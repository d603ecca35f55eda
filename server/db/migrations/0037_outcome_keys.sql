CREATE TABLE "outcome_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"key_hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "outcome_keys_folder_unique" UNIQUE("folder_id"),
	CONSTRAINT "outcome_keys_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "outcome_keys" ADD CONSTRAINT "outcome_keys_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE cascade ON UPDATE no action;