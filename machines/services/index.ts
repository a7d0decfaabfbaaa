import type { HsRulesSource } from '../forms/hs-relevance';
import { MACHINE_KINDS, type MachineKind } from '../types';
import { cbServices } from './cb';
import { externalServices } from './external';
import { internalServices } from './internal';
import { shipmentService } from './shipment';
import { ENTITY_KINDS, type FacilityType, type Precondition, type RequestKind, type ServiceDefinition } from './types';

/**
 * The service registry: one definition per request kind (machines/services/types.ts). Built by `createServices` so
 * that the server can pass its configured Halal HS-code list (HALAL_HS_PREFIXES); `SERVICES` is the registry with the
 * default list, which the web and the Temporal workflow bundle use.
 */
export type ServiceRegistry = Readonly<Record<RequestKind, ServiceDefinition>>;

export const REQUEST_KINDS = MACHINE_KINDS.filter((k): k is RequestKind => !(ENTITY_KINDS as readonly string[]).includes(k));

export function createServices(options: { hsRules?: HsRulesSource } = {}): ServiceRegistry {
  const list = [...cbServices(), ...internalServices(options.hsRules), ...externalServices(options.hsRules), shipmentService(options.hsRules)];
  const registry = Object.fromEntries(list.map((d) => [d.kind, d])) as Record<RequestKind, ServiceDefinition>;
  for (const kind of REQUEST_KINDS) if (!registry[kind]) throw new Error(`no service definition for request kind ${kind}`);
  if (list.length !== REQUEST_KINDS.length) throw new Error('a request kind has two service definitions');
  return registry;
}

export const SERVICES: ServiceRegistry = createServices();

export const isRequestKind = (kind: string): kind is RequestKind => (REQUEST_KINDS as readonly string[]).includes(kind);

/** The definition of a request kind; undefined for entity lifecycles (bill, certificate, mark, delegation). */
export const serviceOf = (kind: MachineKind | string, registry: ServiceRegistry = SERVICES): ServiceDefinition | undefined =>
  isRequestKind(kind) ? registry[kind] : undefined;

/** The services a facility of this type may start (the navigation and the facility profile list them). */
export const servicesFor = (type: FacilityType, registry: ServiceRegistry = SERVICES): ServiceDefinition[] =>
  REQUEST_KINDS.map((k) => registry[k]).filter((d) => d.facilityTypes.includes(type));

/** The section names of a kind, in wizard order (empty for entity lifecycles). */
export const sectionNamesOf = (kind: MachineKind | string, registry: ServiceRegistry = SERVICES): string[] =>
  Object.keys(serviceOf(kind, registry)?.sections ?? {});

export type RenewalWindow = Extract<Precondition, { type: 'renewalWindow' }>;

/**
 * A renewal's window, or undefined for a service that is not a renewal: a service is a renewal by declaring this
 * precondition, and the server's certificate answers (which renewal is open now) and the web's certificate rows (which
 * services are renewals) both read it here.
 */
export const renewalWindowOf = (def: ServiceDefinition): RenewalWindow | undefined =>
  def.preconditions.find((p): p is RenewalWindow => p.type === 'renewalWindow');

/** A service's web path with its parameters filled ('$facilityPublicId' ...); unknown parameters stay as they are. */
export function servicePath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\$(\w+)/g, (m, name: string) => (params[name] !== undefined ? encodeURIComponent(params[name]) : m));
}

export * from './types';
export * from './validate';
export { readSection, productKey } from './project';
