DROP INDEX "requests_queue_idx";--> statement-breakpoint
CREATE INDEX "requests_queue_idx" ON "requests" USING btree ("queue");