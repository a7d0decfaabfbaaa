-- Files of requests submitted before a submission locked them (requests/service.ts sendRequestEvent): each file a
-- submission or resubmission of its request sent is locked as of the first such event after its upload, as that
-- submission would have done. Files uploaded since a request's last submission (a returned request's new files, a
-- staff report) stay open, as they are today.
UPDATE "attachments" AS "a"
SET "locked_at" = "sent"."at"
FROM (
  SELECT "f"."id", min("h"."at") AS "at"
  FROM "attachments" AS "f"
  JOIN "request_history" AS "h"
    ON "h"."request_id" = "f"."request_id" AND "h"."event" IN ('SUBMIT', 'RESUBMIT') AND "h"."at" >= "f"."uploaded_at"
  WHERE "f"."locked_at" IS NULL AND "f"."deleted_at" IS NULL
  GROUP BY "f"."id"
) AS "sent"
WHERE "a"."id" = "sent"."id";
