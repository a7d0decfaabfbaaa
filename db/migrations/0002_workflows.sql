CREATE SEQUENCE "public"."request_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "request_history" (
	"request_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"actor_user_id" text NOT NULL,
	"actor" jsonb NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"note" text,
	"from_status" integer,
	"to_status" integer NOT NULL,
	"from_queue" text,
	"to_queue" text,
	"at" timestamp with time zone NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "request_history_request_id_seq_pk" PRIMARY KEY("request_id","seq")
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"machine_version" integer NOT NULL,
	"input" jsonb NOT NULL,
	"snapshot" jsonb NOT NULL,
	"status" integer NOT NULL,
	"queue" text,
	"state_value" text NOT NULL,
	"version" integer NOT NULL,
	"facility_public_id" text NOT NULL,
	"owner_user_id" text NOT NULL,
	"assignee_user_id" text,
	"creator_name" text DEFAULT '' NOT NULL,
	"brand_names" text DEFAULT '' NOT NULL,
	"history_seq" integer DEFAULT 0 NOT NULL,
	"history_hash" text DEFAULT '' NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requests_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "workflow_timers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"event" text NOT NULL,
	"after" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"fired_at" timestamp with time zone,
	"outcome" text,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "request_history" ADD CONSTRAINT "request_history_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_timers" ADD CONSTRAINT "workflow_timers_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_history_from_queue_idx" ON "request_history" USING btree ("from_queue");--> statement-breakpoint
CREATE INDEX "requests_queue_idx" ON "requests" USING btree ("queue","updated_at");--> statement-breakpoint
CREATE INDEX "requests_facility_idx" ON "requests" USING btree ("facility_public_id");--> statement-breakpoint
CREATE INDEX "requests_assignee_idx" ON "requests" USING btree ("assignee_user_id");--> statement-breakpoint
CREATE INDEX "requests_owner_idx" ON "requests" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "workflow_timers_due_idx" ON "workflow_timers" USING btree ("due_at") WHERE fired_at is null and cancelled_at is null;--> statement-breakpoint
CREATE INDEX "workflow_timers_request_idx" ON "workflow_timers" USING btree ("request_id");