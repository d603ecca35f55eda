CREATE TABLE "rule_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"values" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "rules" ADD COLUMN "template_overrides" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "rule_templates_name_idx" ON "rule_templates" USING btree ("name","id");--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_template_id_rule_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."rule_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rules_template_idx" ON "rules" USING btree ("template_id") WHERE "rules"."template_id" is not null;