import type { ApiResponse } from '../../api/query';

/** GET /api/dashboard/staff and /api/dashboard/facility (server/modules/dashboard/routes.ts), as generated. */
export type StaffDashboard = ApiResponse<'/api/dashboard/staff'>;
export type FacilityDashboard = ApiResponse<'/api/dashboard/facility'>;
