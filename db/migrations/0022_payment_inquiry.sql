ALTER TABLE "payments" ADD COLUMN "inquired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "inquiry_answer" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "inquiry_failures" integer DEFAULT 0 NOT NULL;