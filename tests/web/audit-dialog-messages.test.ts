import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { checkAuditResult, checkCorrectiveActions, checkCorrectiveDecisions } from '../../web/src/routes/audit/dialog-checks';
import { checkStep, emptyDay, planToForm } from '../../web/src/routes/audit/plan-form';
import { messageText, type FieldMessage } from '../../web/src/components/form/validation-messages';
import { TextInput } from '../../web/src/routes/requests/inputs';
import { fullSystem } from '../../web/src/theme';
import arCommon from '../../locales/ar/common.json';
import enCommon from '../../locales/en/common.json';
import arMachines from '../../locales/ar/machines.json';
import enMachines from '../../locales/en/machines.json';
import arRequests from '../../locales/ar/requests.json';
import enRequests from '../../locales/en/requests.json';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';

/*
 * The audit plan, audit result, corrective actions and corrective decisions dialogs check their fields with the
 * machines' validation texts. Their messages are form messages whose key names its namespace; shown through the
 * request screens' inputs (FormField) or messageText, the user reads the sentence in their language, never the key.
 */
const i18n = i18next.createInstance();
await i18n.init({
  resources: {
    ar: { common: arCommon, validation: arValidation, machines: arMachines, requests: arRequests },
    en: { common: enCommon, validation: enValidation, machines: enMachines, requests: enRequests },
  },
  lng: 'en',
  ns: ['common', 'validation', 'machines', 'requests'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});

const words = { ar: arMachines.validation, en: enMachines.validation };
const LANGS = ['ar', 'en'] as const;

/** A field as the dialogs render it (TextInput, with the app's default namespace). */
const field = async (lang: 'ar' | 'en', error: FieldMessage | undefined) => {
  await i18n.changeLanguage(lang);
  const input = createElement(TextInput, { name: 'x', label: 'label', value: '', onChange: () => {}, error, required: true });
  return renderToStaticMarkup(createElement(ChakraProvider, { value: fullSystem(), children: createElement(I18nextProvider, { i18n }, input) }));
};

/** A message a dialog shows on its own line (messageText with the dialog's `requests` namespace). */
const line = (lang: 'ar' | 'en', message: FieldMessage | undefined) => messageText(i18n.getFixedT(lang, 'requests'), message!);

describe('the audit and corrective-action dialogs’ messages', () => {
  it('the audit result: a missing choice, a missing reference and a bad clause number are said in words', async () => {
    expect(checkAuditResult('', []).compliant).toEqual({ key: 'machines:validation.required' });
    const e = checkAuditResult('no', [{ reference: '', clauseNumber: 'abcdefg', description: 'd', observedCase: 'o' }]);
    for (const lang of LANGS) {
      expect(line(lang, checkAuditResult('', []).compliant)).toBe(words[lang].required);
      expect(line(lang, checkAuditResult('no', []).rows)).toBe(words[lang].nonConformityRequired);
      expect(await field(lang, e['0.reference'])).toContain(words[lang].required);
      expect(await field(lang, e['0.clauseNumber'])).toContain(words[lang].clauseNumberFormat);
      expect(await field(lang, e['0.clauseNumber'])).not.toContain('machines:validation');
    }
    expect(checkAuditResult('no', [{ reference: 'ISO', clauseNumber: '5.1', description: 'd', observedCase: 'o' }])).toEqual({});
  });

  it('the corrective actions: a missing description and a bad date are said in words', async () => {
    const e = checkCorrectiveActions(['nc-1'], { 'nc-1': { description: ' ', implementationDate: '2026-13' } });
    for (const lang of LANGS) {
      expect(await field(lang, e['nc-1.description'])).toContain(words[lang].correctiveActionRequired);
      expect(await field(lang, e['nc-1.implementationDate'])).toContain(words[lang].invalidDate);
    }
    expect(checkCorrectiveActions(['nc-1'], { 'nc-1': { description: 'Fixed', implementationDate: '2026-02-01' } })).toEqual({});
  });

  it('the corrective decisions: an undecided action and a rejection without reason are said in words', () => {
    const e = checkCorrectiveDecisions(['a', 'b', 'c'], { b: { accepted: false, reason: '' }, c: { accepted: true, reason: '' } });
    expect(Object.keys(e)).toEqual(['a', 'b']);
    for (const lang of LANGS) {
      expect(line(lang, e.a)).toBe(words[lang].decisionRequired);
      expect(line(lang, e.b)).toBe(words[lang].reasonRequired);
    }
  });

  it('the audit plan: its step checks are said in words, the plan’s own text included', async () => {
    const now = new Date(2026, 0, 10, 12, 0);
    const form = { ...planToForm(null), teamLeaderUserId: 'leader', days: [{ ...emptyDay(), date: '2026-01-10', hour: '13' }, { ...emptyDay(), date: '2026-01-09' }] };
    const basic = checkStep('basic', form, now, false);
    const dates = checkStep('dates', form, now, false);
    for (const lang of LANGS) {
      expect(await field(lang, basic.visitGoal)).toContain(words[lang].required);
      expect(await field(lang, dates['days.0.hour'])).toContain(words[lang].hourRange);
      expect(await field(lang, dates['days.1.date'])).toContain((lang === 'ar' ? arRequests : enRequests).plan.notBeforeNow);
      expect(line(lang, checkStep('dates', { ...form, days: [] }, now, false).days)).toBe(words[lang].visitDateRequired);
      expect(line(lang, checkStep('timeline', form, now, false).timeline)).toBe(words[lang].allAuditorsIncluded);
    }
  });
});
