import { and, desc, eq, ne, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { certificates } from '../../../db/schema';
import { MAIN_CATEGORIES } from '../../../machines/forms/catalogues';
import { isRequestKind, serviceOf, type DataIssue } from '../../../machines/services';
import type { RequestContext } from '../../../machines/types';
import type { RequestView } from '../../../workflows/engine';
import { crRegistryOf } from '../../adapters/cr-registry';
import { foodAuthorityOf } from '../../adapters/food-authority';
import { AppError } from '../../errors';
import { certificateNotValid, isValidCertificate } from './preconditions';
import { cbCoverage, coverageOf, runServerChecks } from './server-checks';
import { assertStillUsable } from './still-usable';

/** The changes an issued external certificate request asks for on its certificate (set A: 105 -> 107 / 131). */
export const CERTIFICATE_CHANGES: ReadonlySet<string> = new Set(['ADD_PRODUCTS', 'ADD_CATEGORIES']);

/** Every category and sub-category code of the catalogue. */
const KNOWN_CATEGORIES = coverageOf(MAIN_CATEGORIES);

/**
 * ADD_PRODUCTS and ADD_CATEGORIES on an issued external certificate (set A) change the certificate as the standalone
 * added-products request does, so they obey its rules (spec 02 sections 4, 5 and 8): the conformity body that acts is
 * still designated and its acceptance certificate valid, the certificate is valid (not expired, not suspended),
 * a category is one of the catalogue's and inside the designation of the CB that issued the certificate ("a category
 * outside the CB appointment certificate cannot be chosen"), and a product falls inside the certificate's categories
 * and that designation and matches the food authority's system. Asked once the machine allows the event; a refusal
 * says why in the caller's language and changes nothing.
 */
export async function assertCertificateChangeAllowed(app: FastifyInstance, view: RequestView, type: string, payload: Record<string, unknown>, now = new Date()): Promise<void> {
  const def = isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  if (!def) return;
  await assertStillUsable(app, view, now);
  const [cert] = await app.db
    .select()
    .from(certificates)
    .where(and(or(eq(certificates.requestId, view.id), eq(certificates.issuedByRequestId, view.id)), ne(certificates.kind, 'halalMark')))
    .orderBy(desc(certificates.issuedAt))
    .limit(1);
  if (!cert) return;
  if (!isValidCertificate(cert, now)) throw certificateNotValid(cert);
  const designation = await cbCoverage(app.db, cert.cbPublicId);
  let issues: DataIssue[] = [];
  if (type === 'ADD_CATEGORIES') {
    const codes = Array.isArray(payload.categories) ? payload.categories : [];
    issues = codes.flatMap((code, index): DataIssue[] => {
      if (typeof code !== 'string') return [];
      if (!KNOWN_CATEGORIES.has(code)) return [{ path: `categories.${index}`, message: 'form.categoryUnknown', params: { category: code } }];
      if (designation && !designation.has(code)) return [{ path: `categories.${index}`, message: 'form.categoryOutsideCbDesignation', params: { category: code } }];
      return [];
    });
  } else if (type === 'ADD_PRODUCTS' && def.sections.products) {
    // Products the section's rules refuse are answered by the engine's own validation (validate-event.ts).
    const parsed = def.sections.products.complete.safeParse(payload.products);
    if (!parsed.success) return;
    const context = view.context as unknown as RequestContext;
    const data = { products: parsed.data };
    const projection = { ...def.project(data, context), cbPublicId: cert.cbPublicId };
    issues = await runServerChecks({
      db: app.db,
      def: { ...def, serverChecks: ['withinFacilityCertificate', 'withinCbDesignation', 'foodAuthorityProducts'] },
      requestId: view.id,
      facilityPublicId: view.facilityId,
      context: { ...context, data },
      projection,
      subject: cert,
      files: { requestId: view.id, files: [] },
      settings: app.settings.current(),
      now,
      registry: crRegistryOf(app),
      foodAuthority: foodAuthorityOf(app),
    });
  }
  if (issues.length) throw new AppError('ValidationFailed', {}, issues.map((i) => ({ field: i.path, message: i.message, ...(i.params ? { params: i.params } : {}) })));
}
