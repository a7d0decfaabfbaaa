import { z } from 'zod';

/**
 * The business constants an administrator may change without a deploy (issue "administration": setting-management).
 * Environment variables (server/config.ts) are the defaults; the settings store (server) keeps the administrator's
 * overrides and hands the engine and the routes the current values. Pure and shared: the web validates the settings
 * form with the same schema.
 */

/** The fee schedule in SAR excluding VAT (reasons for each default in machines/services/fees.ts). */
export const ZFeeSchedule = z.strictObject({
  application: z.number().min(0).max(10_000_000),
  auditPerAuditorDay: z.number().min(0).max(10_000_000),
  internalCertificateYear: z.number().min(0).max(10_000_000),
  externalCertificateYear: z.number().min(0).max(10_000_000),
  cbAppointmentRequest: z.number().min(0).max(10_000_000),
  cbDesignation: z.number().min(0).max(10_000_000),
  cbRenewal: z.number().min(0).max(10_000_000),
  shipmentPer27Tons: z.number().min(0).max(10_000_000),
  markPerProductYear: z.number().min(0).max(10_000_000),
});
export type FeeSchedule = z.infer<typeof ZFeeSchedule>;

/** Halal-mark packages (spec 02 section 9: "from N to M tags, added in multiples of a set number; base about 8"). */
export const ZMarkPackages = z
  .strictObject({
    minTags: z.number().int().min(1).max(100_000),
    maxTags: z.number().int().min(1).max(100_000),
    step: z.number().int().min(1).max(100_000),
    baseProductsPerYear: z.number().int().min(1).max(100_000),
  })
  .refine((p) => p.minTags <= p.maxTags, { path: ['maxTags'], message: 'settings.maxBelowMin' });
export type MarkPackages = z.infer<typeof ZMarkPackages>;

export const ZBusinessSettings = z.strictObject({
  /** 0.15 = 15 %. */
  vatRate: z.number().min(0).max(1),
  fees: ZFeeSchedule,
  paymentWindowHours: z.number().positive().max(24 * 365),
  draftRetentionDays: z.number().int().min(1).max(3650),
  sessionTimeMinutes: z.number().positive().max(24 * 60),
  sessionWarningCountdown: z.number().int().min(1).max(600),
  /** Certificates (and marks) count as expiring soon this many days before expiry (spec: 60). */
  expiringSoonDays: z.number().int().min(1).max(365),
  /** A CB is offered its renewal this many days before expiry (spec: 180). */
  cbRenewalPromptDays: z.number().int().min(1).max(730),
  markPackages: ZMarkPackages,
});
export type BusinessSettings = z.infer<typeof ZBusinessSettings>;
