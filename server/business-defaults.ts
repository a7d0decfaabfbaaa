import type { BusinessSettings } from '../machines/services/settings';
import type { Config } from './config';

/**
 * The business settings as the environment sets them: the defaults an administrator's overrides start from
 * (machines/services/settings.ts; the settings store merges the overrides over these).
 */
export function businessDefaults(config: Config): BusinessSettings {
  return {
    vatRate: config.VAT_RATE,
    fees: {
      application: config.FEE_APPLICATION_SAR,
      auditPerAuditorDay: config.FEE_AUDIT_PER_AUDITOR_DAY_SAR,
      internalCertificateYear: config.FEE_INTERNAL_CERTIFICATE_YEAR_SAR,
      externalCertificateYear: config.FEE_EXTERNAL_CERTIFICATE_YEAR_SAR,
      cbAppointmentRequest: config.FEE_CB_APPOINTMENT_REQUEST_SAR,
      cbDesignation: config.FEE_CB_DESIGNATION_SAR,
      cbRenewal: config.FEE_CB_RENEWAL_SAR,
      shipmentPer27Tons: config.FEE_SHIPMENT_PER_27_TONS_SAR,
      markPerProductYear: config.FEE_MARK_PER_PRODUCT_YEAR_SAR,
    },
    paymentWindowHours: config.PAYMENT_WINDOW_HOURS,
    draftRetentionDays: config.DRAFT_RETENTION_DAYS,
    sessionTimeMinutes: config.SESSION_TIME_MINUTES,
    sessionWarningCountdown: config.SESSION_WARNING_COUNTDOWN,
    expiringSoonDays: config.EXPIRING_SOON_DAYS,
    cbRenewalPromptDays: config.CB_RENEWAL_PROMPT_DAYS,
    markPackages: {
      minTags: config.MARK_PACKAGE_MIN_TAGS,
      maxTags: config.MARK_PACKAGE_MAX_TAGS,
      step: config.MARK_PACKAGE_STEP,
      baseProductsPerYear: config.MARK_BASE_PRODUCTS_PER_YEAR,
    },
  };
}
