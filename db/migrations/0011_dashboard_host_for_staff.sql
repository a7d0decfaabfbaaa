-- The Halal center is the portal's host and each facility a tenant (spec 01 section 2): the default staff roles read
-- the host dashboard (Halal.Dashboard.Host) instead of the tenant one, and the read-only auditor reads it too.
-- Only default roles that still hold what the seed gave them are changed; an administrator's edit is kept.
UPDATE "roles"
SET "permissions" = (
      SELECT coalesce(jsonb_agg(CASE WHEN p = '"Halal.Dashboard.Tenant"'::jsonb THEN '"Halal.Dashboard.Host"'::jsonb ELSE p END), '[]'::jsonb)
      FROM jsonb_array_elements("permissions") AS p
    ),
    "updated_at" = now()
WHERE "is_default"
  AND "name" IN ('registrationEmployee', 'auditEmployee', 'teamLeader', 'technicalAuditor', 'committeeMember')
  AND "permissions" @> '["Halal.Dashboard.Tenant"]'::jsonb
  AND NOT "permissions" @> '["Halal.Dashboard.Host"]'::jsonb;
--> statement-breakpoint
UPDATE "roles"
SET "permissions" = "permissions" || '["Halal.Dashboard.Host"]'::jsonb, "updated_at" = now()
WHERE "is_default" AND "name" = 'readOnlyAuditor' AND NOT "permissions" @> '["Halal.Dashboard.Host"]'::jsonb;
