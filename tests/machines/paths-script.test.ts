import { describe, expect, it } from 'vitest';
import { coverageHtml, scriptsOf, toCsv, toMarkdown } from '../../scripts/paths';
import { walkMachine } from './coverage';

/** `npm run paths`: the generated paths as human-readable test scripts (issue 15, testers). */
describe('npm run paths', () => {
  it('turns every path of the bill machine into a numbered script with who acts and the status expected', () => {
    const scripts = scriptsOf('bill', 'en');
    expect(scripts.map((s) => s.steps.map((st) => `${st.event}>${st.expectedStatus}`))).toEqual([['PAYMENT_CONFIRMED>2'], ['PAYMENT_EXPIRED>3'], ['CANCEL>4']]);
    expect(scripts[0].initial).toEqual({ code: 1, label: 'Awaiting Payment' });
    expect(scripts[0].steps[0].who).toContain('System');
    const md = toMarkdown('bill', scripts, 'en');
    expect(md).toContain('## Script 3');
    expect(md).toContain('| 1 | System (timer or payment portal) | Cancel (`CANCEL`) | 4 Cancelled |');
    const csv = toCsv('bill', scripts).trim().split('\r\n');
    expect(csv[0]).toBe('kind,script,step,who,event,action,expectedStatus,expectedLabel');
    expect(csv).toHaveLength(4);
  });

  it('an internal certificate script starts with the applicant submitting, and speaks Arabic when asked', () => {
    const [first] = scriptsOf('internalCertificate', 'ar');
    expect(first.steps[0]).toMatchObject({ event: 'SUBMIT', who: 'applicant [applicant]', expectedStatus: 2 });
    expect(first.steps[0].expectedLabel).toMatch(/[\u0600-\u06FF]/);
  });

  it('writes a coverage report naming what is and is not covered', async () => {
    const html = coverageHtml([await walkMachine('certificate')], new Set());
    expect(html).toContain('<td>certificate</td>');
    expect(html).toContain('not replayed over HTTP');
  });
});
