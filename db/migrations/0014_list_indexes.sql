DROP INDEX "requests_queue_idx";--> statement-breakpoint
DROP INDEX "requests_facility_idx";--> statement-breakpoint
CREATE INDEX "requests_queue_list_idx" ON "requests" USING btree ("queue","updated_at" DESC NULLS FIRST,"number" DESC NULLS FIRST,"assignee_user_id","kind","deleted_at");--> statement-breakpoint
CREATE INDEX "requests_facility_list_idx" ON "requests" USING btree ("facility_public_id","updated_at" DESC NULLS FIRST,"number" DESC NULLS FIRST,"kind","deleted_at");