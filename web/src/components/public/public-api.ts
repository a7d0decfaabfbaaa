import type { ApiResponse } from '../../api/query';

/** Shapes of the public site's API answers that its shared components name, from the generated API types. */
type Verified = NonNullable<ApiResponse<'/api/public/verify/{code}'>['certificate']>;
export type PublicStatus = Verified['status'];
export type DualDate = Verified['issuedAt'];
export type ContentPageData = ApiResponse<'/api/public/pages/{key}'>;
export type NewsItem = ApiResponse<'/api/public/news/{id}'>;
export type HsTreeNode = ApiResponse<'/api/public/hs-codes/tree'>['items'][number];
