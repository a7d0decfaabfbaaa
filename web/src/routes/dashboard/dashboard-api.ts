/** GET /api/dashboard/staff and /api/dashboard/facility (server/modules/dashboard/routes.ts). */
export interface StatusCount {
  kind: string;
  code: number;
  label: string;
  count: number;
}
export interface Money {
  count: number;
  total: number;
}

export interface StaffDashboard {
  generatedAt: string;
  byQueue: { queue: string; count: number }[];
  byStatus: StatusCount[];
  weekly: { week: string; received: number; decided: number }[];
  bills: { paid: Money; unpaid: Money };
  overdue: number | null;
  byAssignee: { userId: string; name: string; count: number }[];
}

export interface FacilityDashboard {
  generatedAt: string;
  expiringSoonDays: number;
  facilities: { publicId: string; nameAr: string; nameEn: string }[];
  openRequests: {
    count: number;
    byStatus: StatusCount[];
    items: { id: string; number: string; kind: string; facilityId: string; status: { code: number; label: string } }[];
  };
  unpaidBills: Money & { items: { id: string; number: string; facilityId: string; total: number; dueAt: string | null; requestId: string | null }[] };
  expiringCertificates: { id: string; number: string; facilityId: string; expiresAt: string; daysLeft: number }[];
}
