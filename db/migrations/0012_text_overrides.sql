CREATE TABLE "text_overrides" (
	"lang" text NOT NULL,
	"namespace" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_overrides_lang_namespace_key_pk" PRIMARY KEY("lang","namespace","key")
);
--> statement-breakpoint
ALTER TABLE "text_overrides" ADD CONSTRAINT "text_overrides_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;