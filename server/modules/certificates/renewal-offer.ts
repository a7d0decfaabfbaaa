import type { Db } from '../../../db/client';
import type { Actor } from '../../../machines/actor';
import { renewalWindowOf, type ServiceDefinition, type ServiceRegistry } from '../../../machines/services';
import type { BusinessSettings } from '../../../machines/services/settings';
import type { CertificateSummaryJson } from '../../../machines/forms/records';
import { openRequestsAbout, renewalRefusal } from '../requests/preconditions';
import type { CertificateRow } from './certificate-view';

/**
 * What a certificate's holder is offered: the renewal it may start now, or the renewal of it already open. Its shape is
 * the answers' own (machines/forms/records.ts ZRenewalOffer, ZOpenRenewal), declared once there.
 */
export type RenewalOffer = Pick<CertificateSummaryJson, 'renewal' | 'openRenewal'>;

/** The renewal service of a certificate of this kind (the service whose subject it is and that has a renewal window). */
function renewalServiceOf(services: ServiceRegistry, kind: string): ServiceDefinition | undefined {
  return Object.values(services).find(
    (def) => def.subject.type === 'certificate' && def.subject.certificateKinds.includes(kind as never) && !!renewalWindowOf(def),
  );
}

/**
 * The renewal offers of a page of certificates, by the start's own checks: its window (renewalRefusal, with today's
 * settings, so never for a suspended certificate) and its one open request per certificate (openRequestsAbout, asked
 * once for the whole page), so neither the tab nor the page offers a renewal the start refuses; an open renewal is
 * linked instead. Only the holder's members are offered one; the start checks the rest again.
 */
export async function renewalOffers(
  db: Db,
  services: ServiceRegistry,
  settings: BusinessSettings,
  actor: Actor,
  rows: readonly CertificateRow[],
  now = new Date(),
): Promise<(cert: CertificateRow) => RenewalOffer> {
  const held = rows.filter((c) => actor.facilityIds.includes(c.facilityPublicId));
  const serviceOf = new Map(held.flatMap((c) => {
    const def = renewalServiceOf(services, c.kind);
    return def ? [[c.id, def] as const] : [];
  }));
  const oneOpen = [...serviceOf.values()].filter((def) => def.preconditions.some((p) => p.type === 'oneOpenPerSubject'));
  const openAbout = await openRequestsAbout(
    db,
    [...new Set(oneOpen.map((def) => def.kind))],
    held.filter((c) => oneOpen.includes(serviceOf.get(c.id)!)).map((c) => ({ facilityPublicId: c.facilityPublicId, certificateId: c.id })),
  );
  return (cert) => {
    const def = serviceOf.get(cert.id);
    if (!def) return { renewal: null, openRenewal: null };
    const open = oneOpen.includes(def) ? openAbout(cert.facilityPublicId, cert.id) : undefined;
    if (open) return { renewal: null, openRenewal: open };
    const refused = renewalRefusal(cert, renewalWindowOf(def)!, settings, now);
    return { renewal: refused ? null : { kind: def.kind, start: def.routes.start }, openRenewal: null };
  };
}
