-- One main user per facility: a second main user made by an earlier "main delegation" becomes a sub user with
-- the permissions delegated to them (the first main user, the one who added the facility, stays main).
UPDATE "facility_members" m SET "role" = 1
WHERE m."role" = 0 AND EXISTS (
  SELECT 1 FROM "facility_members" o
  WHERE o."facility_id" = m."facility_id" AND o."role" = 0 AND o."user_id" <> m."user_id"
    AND ((o."delegation_id" IS NULL AND m."delegation_id" IS NOT NULL)
      OR ((o."delegation_id" IS NULL) = (m."delegation_id" IS NULL) AND (o."created_at", o."user_id") < (m."created_at", m."user_id")))
);--> statement-breakpoint
-- Delegated permissions are now enforced: a sub user added without a list (the seeded demo sub users) keeps every
-- permission a delegation of that facility type could give (machines/forms/facilities/permissions.ts at this time).
UPDATE "facility_members" m SET "permissions" = CASE f."type"
    WHEN 'InternalFacility' THEN '["FacilityManagment.InternalFacility","FacilityManagment.InternalFacility.Edit","InternalFacilityRequestService.Request","InternalFacilityRequestService.Submit","FileManagement.UploadProductPhoto","FileManagement.DownloadProductPhoto"]'::jsonb
    WHEN 'ExternalFacility' THEN '["FacilityManagment.ExternalFacility","FacilityManagment.ExternalFacility.Edit","ExternalFacilityRequestService.Request","ExternalFacilityRequestService.Submit","ShipmentRequestService.Default","ShipmentRequestService.Submit"]'::jsonb
    ELSE '["FacilityManagment.ConformityBody","FacilityManagment.ConformityBody.Edit","CBAccreditationService.Request","CBAccreditationService.Submit","ExternalFacilityRequestService.Request","ExternalFacilityRequestService.Submit","ShipmentRequestService.Default","ShipmentRequestService.Submit","FileManagement.UploadProductPhoto","FileManagement.DownloadProductPhoto"]'::jsonb END
FROM "facilities" f
WHERE f."id" = m."facility_id" AND m."role" = 1 AND m."permissions" = '[]'::jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "facility_members_one_main_user_uq" ON "facility_members" USING btree ("facility_id") WHERE "facility_members"."role" = 0;--> statement-breakpoint
ALTER TABLE "delegations" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "delegations" DROP COLUMN "otp_verified_at";--> statement-breakpoint
ALTER TABLE "delegations" DROP COLUMN "completed_at";--> statement-breakpoint
ALTER TABLE "delegations" DROP COLUMN "cancelled_at";