import { lazyRouteComponent } from '@tanstack/react-router';

/** The administration screens of issue 15, loaded on demand (router.tsx names them in its route table). */
export const adminScreens = {
  identity: lazyRouteComponent(() => import('./IdentityPage'), 'IdentityPage'),
  settings: lazyRouteComponent(() => import('./SettingsPage'), 'SettingsPage'),
  auditLogs: lazyRouteComponent(() => import('./AuditLogsPage'), 'AuditLogsPage'),
  dashboard: lazyRouteComponent(() => import('../dashboard/DashboardPage'), 'DashboardPage'),
  gdpr: lazyRouteComponent(() => import('../gdpr/GdprPage'), 'GdprPage'),
};
