CREATE TABLE "delegate_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"delegation_id" uuid,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delegate_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "delegations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"facility_id" uuid NOT NULL,
	"delegator_user_id" uuid NOT NULL,
	"delegate_user_id" uuid,
	"national_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"birth_date" date NOT NULL,
	"phone" text NOT NULL,
	"preferred_language" text NOT NULL,
	"email" text NOT NULL,
	"type" integer NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"otp_verified_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "facility_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"facility_id" uuid,
	"category" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"subject_id" text NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"resend_count" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"phone" text NOT NULL,
	"purpose" text NOT NULL,
	"subject_id" text,
	"provider_message_id" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "unified_number" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "cr_status" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "cr_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "acceptance_number" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "notification_number" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "certificate_issue_date" date;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "certificate_expiry_date" date;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "iban" text;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "iban_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "facilities" ADD COLUMN "iban_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "facility_members" ADD COLUMN "delegation_id" uuid;--> statement-breakpoint
ALTER TABLE "delegate_invitations" ADD CONSTRAINT "delegate_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegate_invitations" ADD CONSTRAINT "delegate_invitations_delegation_id_delegations_id_fk" FOREIGN KEY ("delegation_id") REFERENCES "public"."delegations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegator_user_id_users_id_fk" FOREIGN KEY ("delegator_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegate_user_id_users_id_fk" FOREIGN KEY ("delegate_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facility_attachments" ADD CONSTRAINT "facility_attachments_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facility_attachments" ADD CONSTRAINT "facility_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegations_facility_idx" ON "delegations" USING btree ("facility_id");--> statement-breakpoint
CREATE INDEX "facility_attachments_facility_idx" ON "facility_attachments" USING btree ("facility_id");--> statement-breakpoint
CREATE INDEX "otp_challenges_subject_idx" ON "otp_challenges" USING btree ("purpose","subject_id");--> statement-breakpoint
CREATE INDEX "sms_messages_phone_idx" ON "sms_messages" USING btree ("phone","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_registration_number_uq" ON "facilities" USING btree ("type","country_code","registration_number") WHERE "facilities"."registration_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_acceptance_number_uq" ON "facilities" USING btree ("acceptance_number") WHERE "facilities"."acceptance_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_notification_number_uq" ON "facilities" USING btree ("notification_number") WHERE "facilities"."notification_number" is not null;