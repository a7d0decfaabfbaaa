import type { ComponentType } from 'react';
import type { ApiResponse } from '../../api/query';
import { CbAddCategoriesRequests } from './CbAddCategoriesRequests';

export interface CertificateSectionProps {
  certificate: ApiResponse<'/api/certificates/{id}'>;
}

/**
 * What a certificate kind shows below the generic certificate page's details, declared per kind so the page names no
 * kind: a CB's designation certificate lists its add-categories requests (spec 02 section 2).
 */
export const certificateSections: Partial<Record<string, ComponentType<CertificateSectionProps>>> = {
  cbDesignation: CbAddCategoriesRequests,
};
