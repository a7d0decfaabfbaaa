CREATE TABLE "bills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"request_id" uuid,
	"facility_public_id" text NOT NULL,
	"service" integer NOT NULL,
	"fee_kind" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"vat" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"payment_reference" text,
	"due_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bills_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"legacy_number" text,
	"kind" text NOT NULL,
	"request_id" uuid,
	"facility_public_id" text NOT NULL,
	"cb_public_id" text,
	"status" integer DEFAULT 1 NOT NULL,
	"scope" text,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"products" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verification_code" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"suspended_at" timestamp with time zone,
	CONSTRAINT "certificates_number_unique" UNIQUE("number"),
	CONSTRAINT "certificates_verification_code_unique" UNIQUE("verification_code")
);
--> statement-breakpoint
CREATE INDEX "bills_request_idx" ON "bills" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "bills_facility_idx" ON "bills" USING btree ("facility_public_id");--> statement-breakpoint
CREATE INDEX "certificates_facility_idx" ON "certificates" USING btree ("facility_public_id");