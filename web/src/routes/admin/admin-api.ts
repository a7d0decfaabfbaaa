import type { ApiResponse } from '../../api/query';

export type AuditEntry = ApiResponse<'/api/admin/audit-logs'>['items'][number];
export type StaffUser = ApiResponse<'/api/identity/users'>['items'][number];
export type RoleRow = ApiResponse<'/api/identity/roles'>[number];

