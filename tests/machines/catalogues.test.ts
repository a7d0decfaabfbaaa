import { describe, expect, it } from 'vitest';
import { initialTransition } from 'xstate';
import {
  allowedActions,
  catalogues,
  deadlinesOf,
  DEFINITIONS,
  eventSchemas,
  eventTypesOf,
  getMachine,
  guardParamsOf,
  halalMarkCodeFromReadingB,
  kindOfRequestType,
  MACHINE_KINDS,
  QUEUES,
  registry,
  stateNodesOf,
  statusOf,
  translate,
  EVENT_TYPES,
  type MachineKind,
  type StateMeta,
} from '../../machines';
import enMachines from '../../locales/en/machines.json';
import arMachines from '../../locales/ar/machines.json';
import enStatus from '../../locales/en/status.json';
import arStatus from '../../locales/ar/status.json';
import { transitionIds } from './paths';
import { people } from './drive';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Spec 02 section 4, transcribed independently of the machines: catalogue -> codes. */
const SPEC_CATALOGUES: Record<string, { codes: number[]; kinds: MachineKind[] }> = {
  'CB accreditation': { codes: range(1000, 1007), kinds: ['cbDesignation', 'cbRenewal', 'cbAddCategories'] },
  'internal simple set': { codes: range(1001, 1005), kinds: ['internalAddProducts', 'internalHalalMark'] },
  'internal full set': { codes: [...range(0, 33), 106, 204, 205], kinds: ['internalCertificate', 'internalRenewal'] },
  'external set A': {
    codes: [...range(100, 105), 107, 108, 128, 129, 130, 131, 132, 204, 205],
    kinds: ['externalCertificate'],
  },
  'external set B': {
    codes: [0, 1, 2, 3, 4, 5, 7, 8, 1001, 1002, 1003, 1004, 1005, 1007, 1008],
    kinds: ['externalRenewal', 'externalAddProducts', 'shipment', 'externalHalalMark'],
  },
  bill: { codes: [1, 2, 3, 4], kinds: ['bill'] },
  certificate: { codes: [1, 2, 3, 4], kinds: ['certificate'] },
  'Halal logo': { codes: [1, 2, 3, 4], kinds: ['halalMark'] },
};

const codesOf = (kind: MachineKind) => new Set(catalogues.statuses[kind].map((e) => e.code));

describe('catalogues', () => {
  for (const [name, spec] of Object.entries(SPEC_CATALOGUES)) {
    it(`every code of the spec's ${name} catalogue appears in one of its machines`, () => {
      const used = new Set(spec.kinds.flatMap((k) => [...codesOf(k)]));
      expect(spec.codes.filter((c) => !used.has(c))).toEqual([]);
    });
  }

  it('machines use only codes of their catalogue (plus the deleted tombstone, the CB rejection and CB payment expiry)', () => {
    // The CB catalogue has neither a rejection nor a payment-expired code: the spec's 15 and 3 (internal set) are used.
    // The internal simple set has no draft code: internal added products (v2) use the internal full set's draft 0.
    const allowedExtra: Partial<Record<MachineKind, number[]>> = { cbDesignation: [15, 3], cbRenewal: [15, 3], internalAddProducts: [0] };
    for (const [, spec] of Object.entries(SPEC_CATALOGUES))
      for (const kind of spec.kinds) {
        const extra = [...codesOf(kind)].filter((c) => !spec.codes.includes(c) && c !== -1 && !(allowedExtra[kind] ?? []).includes(c));
        expect(extra, kind).toEqual([]);
      }
  });

  it('every status has an Arabic and an English label, and the two locale files have the same keys', () => {
    for (const kind of MACHINE_KINDS)
      for (const entry of catalogues.statuses[kind]) {
        const ar = translate(entry.labelKey, 'ar');
        expect(ar, `${entry.labelKey} ar`).toMatch(/[\u0600-\u06FF]/);
        expect(translate(entry.labelKey, 'en'), `${entry.labelKey} en`).toMatch(/[A-Za-z]/);
      }
    const keys = (o: unknown, prefix = ''): string[] =>
      typeof o === 'object' && o !== null ? Object.entries(o).flatMap(([k, v]) => keys(v, `${prefix}${k}.`)) : [prefix];
    expect(keys(arStatus).sort()).toEqual(keys(enStatus).sort());
    expect(keys(arMachines).sort()).toEqual(keys(enMachines).sort());
  });

  it("a Halal-mark request's draft reads as the other services' drafts do, not as \"New\"", () => {
    const draftLabel = (kind: MachineKind, lang: 'ar' | 'en') => translate(catalogues.statuses[kind].find((e) => e.states.includes('draft'))!.labelKey, lang);
    for (const lang of ['ar', 'en'] as const) {
      // The draft label of the services whose catalogue has a draft code (0, 100, 1000).
      const drafts = new Set((['internalCertificate', 'externalCertificate', 'cbDesignation', 'shipment'] as const).map((k) => draftLabel(k, lang)));
      expect(drafts).toEqual(new Set([lang === 'ar' ? 'مسودة' : 'Draft']));
      for (const kind of ['internalHalalMark', 'externalHalalMark'] as const) expect(draftLabel(kind, lang), `${kind} ${lang}`).toBe([...drafts][0]);
    }
  });

  it("a certificate approved after a return to audit reads as the spec names 32 and 33, not as returned again", () => {
    for (const kind of ['internalCertificate', 'internalRenewal'] as const)
      for (const lang of ['ar', 'en'] as const) {
        const label = (code: number) => translate(catalogues.statuses[kind].find((e) => e.code === code)!.labelKey, lang);
        expect(label(33), `${kind} ${lang}`).toBe(label(32));
      }
  });

  it('kinds, queues, events, request types and kinds and payment services are labelled in both languages', () => {
    const keys = [
      ...catalogues.kinds.map((k) => k.labelKey),
      ...catalogues.queues.map((q) => q.labelKey),
      ...catalogues.requestTypes.map((t) => t.labelKey),
      ...catalogues.requestKinds.map((k) => k.labelKey),
      ...catalogues.paymentServices.map((s) => s.labelKey),
      ...EVENT_TYPES.map((t) => `machines:events.${t}`),
    ];
    for (const key of keys) {
      expect(translate(key, 'ar'), key).toMatch(/[\u0600-\u06FF]/);
      expect(translate(key, 'en'), key).toBeTruthy();
    }
  });

  it('request type and request kind codes start the right machines', () => {
    const expected: Record<string, MachineKind> = {
      0: 'cbDesignation',
      1: 'internalCertificate',
      2: 'cbRenewal',
      600: 'cbRenewal',
      CbaRenewalRequest: 'cbRenewal',
      10: 'externalCertificate',
      100: 'shipment',
      200: 'shipment',
      201: 'internalCertificate',
      202: 'internalRenewal',
      300: 'cbAddCategories',
    };
    for (const [code, kind] of Object.entries(expected)) expect(kindOfRequestType(code), code).toBe(kind);
    expect(Object.fromEntries(catalogues.requestKinds.map((k) => [k.code, k.kinds]))).toEqual({
      2: ['externalCertificate', 'externalRenewal', 'externalAddProducts'],
      3: ['shipment'],
      4: ['externalHalalMark'],
    });
  });

  it('the other reading of the Halal mark codes translates to the codes the machine emits', () => {
    expect([1, 2, 3, 4].map(halalMarkCodeFromReadingB)).toEqual([1, 3, 2, 4]);
    expect(() => halalMarkCodeFromReadingB(9)).toThrow();
  });
});

describe('machine conventions', () => {
  for (const d of DEFINITIONS) {
    it(`${d.kind}: resting states have a status and one queue tag; every transition has a guard`, () => {
      for (const node of stateNodesOf(d.machine) as unknown as { type: string; meta?: StateMeta; tags: string[]; id: string }[]) {
        if (node.type !== 'atomic' && node.type !== 'final') continue;
        expect(typeof node.meta?.status, node.id).toBe('number');
        expect([...node.tags].filter((t) => (QUEUES as readonly string[]).includes(t)), node.id).toHaveLength(1);
      }
      for (const [t, id] of transitionIds(d.machine)) expect(guardParamsOf(t), id).toBeDefined();
      expect(eventTypesOf(d.kind).every((t) => eventSchemas[d.kind][t] !== undefined)).toBe(true);
      expect(d.readings.length).toBeGreaterThan(0);
    });
  }

  it('the registry keeps versions and refuses unknown ones', () => {
    // CB designation and renewal gained their bills in version 2 and the internal rules below in version 3, the Halal mark its staff cancellation, the internal
    // certificate and renewal who takes a plan to draft, the shipment its paid wait for a valid factory certificate
    // internal added products a draft labelled "Draft" (code 0), the mark packages their end with an expired certificate (and, in version 3, no discount on a stopped request, as every other request machine in version 2);
    // version 1 stays for requests started on it.
    // Then (staff flow) a saved plan stays audit's draft, and a review's assignment ends with the review.
    const current: Partial<Record<MachineKind, number>> = {
      cbDesignation: 4,
      cbRenewal: 4,
      cbAddCategories: 2,
      halalMark: 2,
      internalCertificate: 3,
      internalRenewal: 3,
      internalAddProducts: 3,
      internalHalalMark: 2,
      externalCertificate: 3,
      externalRenewal: 3,
      externalAddProducts: 3,
      shipment: 3,
      externalHalalMark: 2,
    };
    for (const kind of MACHINE_KINDS) {
      expect(registry[kind].current).toBe(current[kind] ?? 1);
      expect(registry[kind].versions[1]).toBe(getMachine(kind, 1));
    }
    expect(getMachine('cbDesignation')).toBe(registry.cbDesignation.versions[4]);
    expect(() => getMachine('bill', 2)).toThrow(/version 2/);
  });

  it('a persisted snapshot (JSON) gives the same status and actions as the live one', () => {
    const machine = getMachine('internalCertificate');
    const [live] = initialTransition(machine, { requestId: 'r', ownerUserId: 'o', facilityId: 'facility-f' });
    const persisted = JSON.parse(JSON.stringify(machine.getPersistedSnapshot(live)));
    expect(allowedActions('internalCertificate', persisted, people.applicant)).toEqual(
      allowedActions('internalCertificate', live, people.applicant),
    );
    expect(statusOf(machine.resolveState(persisted))).toBe(0);
  });

  it('deadlines: configured durations are named, dates are computed from the context or the calendar', () => {
    const now = new Date('2026-02-10T12:00:00Z');
    const draft = initialTransition(getMachine('internalCertificate'), { requestId: 'r', ownerUserId: 'o', facilityId: 'f' })[0];
    expect(deadlinesOf(draft, now)).toEqual([{ event: 'DRAFT_EXPIRED', after: 'draftRetention', stateId: 'draft' }]);
    const cert = initialTransition(getMachine('certificate'), {
      requestId: 'c',
      ownerUserId: 'o',
      facilityId: 'f',
      data: { expiresAt: '2026-06-30T00:00:00Z' },
    })[0];
    expect(deadlinesOf(cert, now)).toEqual([
      { event: 'EXPIRING_SOON', after: 'certificateExpiringSoon', dueAt: '2026-05-01T00:00:00.000Z', stateId: 'certificate.active' },
    ]);
    const mark = initialTransition(getMachine('halalMark'), {
      requestId: 'm',
      ownerUserId: 'o',
      facilityId: 'f',
      data: { validFrom: '2026-01-01', expiresAt: '2027-01-01' },
    })[0];
    expect(deadlinesOf(mark, now)[0]).toMatchObject({ event: 'VALIDITY_STARTED', dueAt: '2026-01-01T00:00:00.000Z' });
  });
});
