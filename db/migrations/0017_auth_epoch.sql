CREATE TABLE "auth_epoch" (
	"id" integer PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "auth_epoch" ("id", "value") VALUES (1, 0);--> statement-breakpoint
-- Moves the value at commit (deferred constraint triggers): the row is locked only while the writer commits, so two
-- writers of identity rows never wait on each other for the length of a transaction. Readers see the change and the
-- new value together, or neither.
CREATE FUNCTION "auth_epoch_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "auth_epoch" SET "value" = "value" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A session's last use moving forward (every request's touch) is not a change: a server keeps a session's identity only
-- while its remembered last use is recent; one moved back (a restore, a test's clock) is.
CREATE CONSTRAINT TRIGGER "auth_epoch_sessions" AFTER UPDATE ON "sessions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR NEW."last_seen_at" < OLD."last_seen_at" OR OLD."user_id" <> NEW."user_id") EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "auth_epoch_sessions_deleted" AFTER DELETE ON "sessions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "auth_epoch_users" AFTER UPDATE OF "user_name", "email", "name", "roles", "locked_at" OR DELETE ON "users" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "auth_epoch_facility_members" AFTER INSERT OR UPDATE OR DELETE ON "facility_members" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "auth_epoch_facilities" AFTER UPDATE OF "public_id" OR DELETE ON "facilities" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "auth_epoch_roles" AFTER INSERT OR UPDATE OR DELETE ON "roles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "auth_epoch_truncate_sessions" AFTER TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "auth_epoch_truncate_users" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "auth_epoch_truncate_facility_members" AFTER TRUNCATE ON "facility_members" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "auth_epoch_truncate_facilities" AFTER TRUNCATE ON "facilities" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();--> statement-breakpoint
CREATE TRIGGER "auth_epoch_truncate_roles" AFTER TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
