CREATE TABLE "personal_data_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'preparing' NOT NULL,
	"language" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"data" text,
	"token_hash" text,
	"token_expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "personal_data_requests" ADD CONSTRAINT "personal_data_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personal_data_requests_user_idx" ON "personal_data_requests" USING btree ("user_id","requested_at");--> statement-breakpoint
CREATE INDEX "personal_data_requests_status_idx" ON "personal_data_requests" USING btree ("status");