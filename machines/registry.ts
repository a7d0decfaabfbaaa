import type { AnyStateMachine } from 'xstate';
import type { MachineDefinition } from './definition';
import { MACHINE_KINDS, type MachineKind } from './types';
import { cbDesignationV1, cbDesignationV2, cbDesignationV3, cbDesignationV4 } from './cb-designation';
import { cbRenewalV1, cbRenewalV2, cbRenewalV3, cbRenewalV4 } from './cb-renewal';
import { cbAddCategoriesV1, cbAddCategoriesV2 } from './cb-add-categories';
import { internalCertificateV1, internalCertificateV2, internalCertificateV3 } from './internal-certificate';
import { internalRenewalV1, internalRenewalV2, internalRenewalV3 } from './internal-renewal';
import { internalAddProductsV1, internalAddProductsV2, internalAddProductsV3 } from './internal-add-products';
import { internalHalalMarkV1, internalHalalMarkV2 } from './internal-halal-mark';
import { externalCertificateV1, externalCertificateV2, externalCertificateV3 } from './external-certificate';
import { externalRenewalV1, externalRenewalV2, externalRenewalV3 } from './external-renewal';
import { externalAddProductsV1, externalAddProductsV2, externalAddProductsV3 } from './external-add-products';
import { shipmentV1, shipmentV2, shipmentV3 } from './shipment';
import { externalHalalMarkV1, externalHalalMarkV2 } from './external-halal-mark';
import { billV1 } from './bill';
import { certificateV1 } from './certificate';
import { halalMarkV1, halalMarkV2 } from './halal-mark';
import { delegationV1 } from './delegation';

/**
 * Every version of every machine that requests may still be running on. A request records the version it started
 * with and keeps it; changing a machine means adding a new definition with the next version here and moving
 * `current`, never editing a version that requests run on.
 */
export const DEFINITIONS: readonly MachineDefinition[] = [
  cbDesignationV1,
  cbDesignationV2,
  cbDesignationV3,
  cbDesignationV4,
  cbRenewalV1,
  cbRenewalV2,
  cbRenewalV3,
  cbRenewalV4,
  cbAddCategoriesV1,
  cbAddCategoriesV2,
  internalCertificateV1,
  internalCertificateV2,
  internalCertificateV3,
  internalRenewalV1,
  internalRenewalV2,
  internalRenewalV3,
  internalAddProductsV1,
  internalAddProductsV2,
  internalAddProductsV3,
  internalHalalMarkV1,
  internalHalalMarkV2,
  externalCertificateV1,
  externalCertificateV2,
  externalCertificateV3,
  externalRenewalV1,
  externalRenewalV2,
  externalRenewalV3,
  externalAddProductsV1,
  externalAddProductsV2,
  externalAddProductsV3,
  shipmentV1,
  shipmentV2,
  shipmentV3,
  externalHalalMarkV1,
  externalHalalMarkV2,
  billV1,
  certificateV1,
  halalMarkV1,
  halalMarkV2,
  delegationV1,
];

function build() {
  const definitions = {} as Record<MachineKind, { current: number; versions: Record<number, MachineDefinition> }>;
  for (const kind of MACHINE_KINDS) definitions[kind] = { current: 0, versions: {} };
  for (const d of DEFINITIONS) {
    const entry = definitions[d.kind];
    if (entry.versions[d.version]) throw new Error(`duplicate machine ${d.kind} v${d.version}`);
    entry.versions[d.version] = d;
    entry.current = Math.max(entry.current, d.version);
  }
  for (const kind of MACHINE_KINDS) if (!definitions[kind].current) throw new Error(`no machine for ${kind}`);
  return definitions;
}

/** kind -> current version and every definition by version. */
export const definitions = build();

/** kind -> current version and every machine by version (the interface the engine and server use). */
export const registry = Object.fromEntries(
  MACHINE_KINDS.map((kind) => [
    kind,
    {
      current: definitions[kind].current,
      versions: Object.fromEntries(Object.entries(definitions[kind].versions).map(([v, d]) => [Number(v), d.machine])),
    },
  ]),
) as Record<MachineKind, { current: number; versions: Record<number, AnyStateMachine> }>;

export const isMachineKind = (kind: string): kind is MachineKind => (MACHINE_KINDS as readonly string[]).includes(kind);

/** The definition of `kind` at `version` (default: current); throws for an unknown kind or version. */
export function getDefinition(kind: MachineKind, version?: number): MachineDefinition {
  const entry = definitions[kind];
  if (!entry) throw new Error(`unknown machine kind ${kind}`);
  const d = entry.versions[version ?? entry.current];
  if (!d) throw new Error(`no version ${version} of machine ${kind}`);
  return d;
}

/** The machine of `kind` at `version` (default: current). */
export const getMachine = (kind: MachineKind, version?: number): AnyStateMachine => getDefinition(kind, version).machine;
