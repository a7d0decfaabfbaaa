import { publicOrigin } from '../payments/public-origin';
import { Permissions as P } from '../../../machines/permissions';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../machines/actor';
import type { Db } from '../../../db/client';
import { attachmentsOf } from './attachments';
import { toFacilityDto } from './dto';
import type { FacilityRow } from './access';

/** Route policies of the facilities area (spec 01 section 6); membership is checked on top, per call. */
export const Policy = {
  anyFacility: [P.facility.internal, P.facility.external, P.facility.conformityBody],
  internal: P.facility.internal,
  internalCreate: P.facility.internalCreate,
  external: P.facility.external,
  externalCreate: P.facility.externalCreate,
  externalEdit: P.facility.externalEdit,
  conformityBody: P.facility.conformityBody,
  conformityBodyCreate: P.facility.conformityBodyCreate,
  conformityBodyEdit: P.facility.conformityBodyEdit,
  anyCreate: [P.facility.internalCreate, P.facility.externalCreate, P.facility.conformityBodyCreate],
  staff: P.portals.halalCenter,
} as const;

/** The signed-in actor (routes with a non-public policy always have one). */
export const actorOf = (request: FastifyRequest): Actor => request.actor!;

export async function facilityDto(db: Db, f: FacilityRow, role: number | null) {
  return toFacilityDto(f, await attachmentsOf(db, f.id), role);
}

/** Where links sent by SMS point: PUBLIC_URL (server/modules/payments/public-origin.ts), never X-Forwarded-Host. */
export const publicBaseUrl = (request: FastifyRequest): string => publicOrigin(request);
