import type { FastifyInstance } from 'fastify';
import { AppError, registerErrorStatus } from '../errors';
import { callJson, serviceBaseUrl } from './http';

registerErrorStatus({ CrNotFound: 404 });

/** WathiqCRStatus of spec 02 section 4; "Deleted" is shown to people as cancelled. */
export const CR_STATUSES = ['Active', 'Suspended', 'Deleted', 'Expired'] as const;
export type CrStatus = (typeof CR_STATUSES)[number];

export interface CrParty {
  name: string;
  /** National or resident id of the person (owner, partner, manager). */
  identityNumber: string;
  relation: string;
}

/** What the portal keeps of a commercial registration (spec 02 section 3, Facility). */
export interface CrData {
  crNumber: string;
  crEntityNumber: string;
  unifiedNumber: string | null;
  nameAr: string;
  nameEn: string;
  commercialName: string;
  status: CrStatus;
  activityName: string;
  activityNameEn: string;
  /** ISO dates (yyyy-mm-dd), Gregorian. */
  issueDate: string;
  expiryDate: string;
  address: {
    countryCode: string;
    city: string;
    district: string;
    streetName: string;
    zipCode: string;
    buildingNumber: string;
    additionalNumber: string;
  };
  parties: CrParty[];
}

/**
 * The registry's answer for `GET /commercialregistration/fullinfo/{crEntityNumber}`, shaped like the Wathq
 * commercial-registration API (the fields this portal reads). The simulator serves exactly this shape.
 */
export interface WathqFullInfo {
  crName: string;
  crNameEn?: string | null;
  crNumber: string;
  crEntityNumber: string;
  unifiedNumber?: string | null;
  tradeName?: string | null;
  issueDate: string;
  expiryDate: string;
  status: { id: string; name: string; nameEn: string };
  activities: { description: string; isic: { id: string; name: string; nameEn: string }[] };
  address: {
    national: {
      city: string;
      district: string;
      streetName: string;
      zipCode: string;
      buildingNumber: string;
      additionalNumber: string;
    };
  };
  parties?: { name: string; identity: { id: string; type: string }; relation: { id: string; name: string } }[] | null;
}

const STATUS_BY_ID: Record<string, CrStatus> = { active: 'Active', suspended: 'Suspended', deleted: 'Deleted', expired: 'Expired' };

/** Maps the registry's answer to the portal's CrData; unknown statuses are refused rather than guessed. */
export function toCrData(w: WathqFullInfo): CrData {
  const status = STATUS_BY_ID[w.status.id.toLowerCase()];
  if (!status) throw new AppError('ExternalServiceUnavailable', { service: 'cr' });
  const activity = w.activities.isic[0];
  return {
    crNumber: w.crNumber,
    crEntityNumber: w.crEntityNumber,
    unifiedNumber: w.unifiedNumber ?? null,
    nameAr: w.crName,
    nameEn: w.crNameEn || w.crName,
    commercialName: w.tradeName || w.crName,
    status,
    activityName: activity?.name ?? w.activities.description,
    activityNameEn: activity?.nameEn ?? w.activities.description,
    issueDate: w.issueDate,
    expiryDate: w.expiryDate,
    address: { countryCode: 'SA', ...w.address.national },
    parties: (w.parties ?? []).map((p) => ({ name: p.name, identityNumber: p.identity.id, relation: p.relation.name })),
  };
}

export interface CrRegistry {
  /** The registration's data; throws CrNotFound when the registry does not know the number. */
  fullInfo(crEntityNumber: string): Promise<CrData>;
}

export function createCrRegistry(opts: { baseUrl: string; apiKey: string; timeoutMs: number; fetchImpl?: typeof fetch }): CrRegistry {
  return {
    async fullInfo(crEntityNumber) {
      const { status, body } = await callJson<WathqFullInfo>(
        `${opts.baseUrl}/commercialregistration/fullinfo/${encodeURIComponent(crEntityNumber)}`,
        { headers: { apiKey: opts.apiKey }, timeoutMs: opts.timeoutMs, fetchImpl: opts.fetchImpl },
        'cr',
      );
      if (status === 404) throw new AppError('CrNotFound', { crNumber: crEntityNumber });
      if (status !== 200 || !body) throw new AppError('ExternalServiceUnavailable', { service: 'cr' });
      return toCrData(body);
    },
  };
}

const perApp = new WeakMap<object, CrRegistry>();

/** The registry client of this server (keyed by its config, shared by every plugin context). */
export function crRegistryOf(app: FastifyInstance): CrRegistry {
  let r = perApp.get(app.config);
  if (!r) {
    r = createCrRegistry({ baseUrl: serviceBaseUrl(app.config, 'cr'), apiKey: app.config.CR_REGISTRY_API_KEY, timeoutMs: app.config.EXTERNAL_TIMEOUT_MS });
    perApp.set(app.config, r);
  }
  return r;
}
