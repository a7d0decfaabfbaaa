ALTER TABLE "certificates" ADD COLUMN "issued_by_request_id" uuid;--> statement-breakpoint
-- Certificates issued before this column: the request a certificate names issued it, unless a renewal has taken it
-- over (its issuing request is then not recorded, and that request's set A changes fall back, as before, to the
-- facility's newest valid certificate).
UPDATE "certificates" AS "c"
SET "issued_by_request_id" = "c"."request_id"
FROM "requests" AS "r"
WHERE "r"."id" = "c"."request_id" AND "c"."kind" <> 'halalMark' AND "r"."kind" NOT IN ('internalRenewal', 'externalRenewal', 'cbRenewal');
