import { sectionNamesOf } from './services';
import type { MachineKind } from './types';

/**
 * The sections (wizard steps) of each request kind's data, from its service definition (machines/services). EDIT
 * replaces whole sections; registration may return chosen sections, and the applicant may then edit only those.
 */
export const sectionsOf = (kind: MachineKind): readonly string[] => sectionNamesOf(kind);
