CREATE TABLE "mark_package_credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_request_id" uuid NOT NULL,
	"used_by_request_id" uuid NOT NULL,
	"bill_id" uuid,
	"certificate_id" uuid NOT NULL,
	"facility_public_id" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "credit" numeric(14, 2);--> statement-breakpoint
CREATE INDEX "mark_package_credits_source_idx" ON "mark_package_credits" USING btree ("source_request_id");--> statement-breakpoint
CREATE INDEX "mark_package_credits_used_by_idx" ON "mark_package_credits" USING btree ("used_by_request_id");