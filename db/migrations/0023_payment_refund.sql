ALTER TABLE "payments" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_on" date;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_recorded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_recorded_by" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_recorded_by_users_id_fk" FOREIGN KEY ("refund_recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;