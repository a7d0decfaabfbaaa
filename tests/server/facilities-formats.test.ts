import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatIban,
  formatUnifiedNumber,
  ibanMod97,
  isAcceptanceNumber,
  isCrNumber,
  isNationalOrResidentId,
  isNotificationNumber,
  makeSaudiIban,
  maskPhone,
  normalizeIban,
  normalizePhone,
  normalizeUnifiedNumber,
  withLuhnDigit,
} from '../../machines/forms/facilities/formats';

/** Property-based tests of the number formats of spec 02 sections 3 and 5 (and spec 02 shipment's unified number). */
const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));
const upperAlnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));

describe('acceptance number #-####H-CB', () => {
  it('accepts every digit-dash-four-digits-H-CB value, in any letter case', () => {
    fc.assert(
      fc.property(digits(1), digits(4), fc.boolean(), (a, b, lower) => {
        const v = `${a}-${b}H-CB`;
        expect(isAcceptanceNumber(lower ? v.toLowerCase() : v)).toBe(true);
      }),
    );
  });
  it('refuses values with a wrong digit count, a missing part or extra characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 7 }), (n1, n4) => {
        fc.pre(!(n1 === 1 && n4 === 4));
        expect(isAcceptanceNumber(`${'1'.repeat(n1)}-${'2'.repeat(n4)}H-CB`)).toBe(false);
      }),
    );
    for (const bad of ['1-2345H-C', '1-2345-CB', '1 2345H-CB', '1-2345HCB', 'X-2345H-CB', '1-2345H-CB1', 'H-CB2345-1']) expect(isAcceptanceNumber(bad)).toBe(false);
  });
});

describe('notification number H-CB####-#', () => {
  it('accepts H-CB, four digits, a dash and one digit', () => {
    fc.assert(fc.property(digits(4), digits(1), (a, b) => {
        expect(isNotificationNumber(`H-CB${a}-${b}`)).toBe(true);
      }));
  });
  it('refuses any other shape', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 3 }), (n4, n1) => {
        fc.pre(!(n4 === 4 && n1 === 1));
        expect(isNotificationNumber(`H-CB${'3'.repeat(n4)}-${'4'.repeat(n1)}`)).toBe(false);
      }),
    );
    expect(isNotificationNumber('1-2345H-CB')).toBe(false);
  });
});

describe('commercial registration number', () => {
  it('accepts ten digits starting with a region digit 1-7', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), digits(9), (r, rest) => {
        expect(isCrNumber(`${r}${rest}`)).toBe(true);
      }));
  });
  it('refuses other lengths, letters and region digits 0, 8, 9', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 15 }).filter((n) => n !== 10), (n) => {
        expect(isCrNumber('1'.repeat(n))).toBe(false);
      }));
    fc.assert(fc.property(fc.constantFrom('0', '8', '9'), digits(9), (r, rest) => {
        expect(isCrNumber(`${r}${rest}`)).toBe(false);
      }));
    expect(isCrNumber('10107A0001')).toBe(false);
  });
});

describe('unified number 70X XXX XXXX', () => {
  it('normalizes any spacing of a 70-prefixed ten-digit number and formats it back', () => {
    fc.assert(
      fc.property(digits(8), fc.array(fc.constantFrom(' ', ''), { minLength: 10, maxLength: 10 }), (rest, spaces) => {
        const compact = `70${rest}`;
        const typed = compact.split('').map((d, i) => d + spaces[i]).join('');
        expect(normalizeUnifiedNumber(typed)).toBe(compact);
        expect(formatUnifiedNumber(compact)).toMatch(/^70\d \d{3} \d{4}$/);
        expect(normalizeUnifiedNumber(formatUnifiedNumber(compact))).toBe(compact);
      }),
    );
  });
  it('refuses numbers not starting with 70 or of another length', () => {
    fc.assert(fc.property(digits(10).filter((d) => !d.startsWith('70')), (d) => {
        expect(normalizeUnifiedNumber(d)).toBeNull();
      }));
    fc.assert(fc.property(digits(8), (d) => {
        expect(normalizeUnifiedNumber(`70${d}1`)).toBeNull();
      }));
  });
});

describe('Saudi IBAN (SA, 24 characters, mod 97)', () => {
  it('accepts every IBAN built with correct check digits, with or without spaces, in any case', () => {
    fc.assert(
      fc.property(digits(2), fc.array(upperAlnum, { minLength: 18, maxLength: 18 }), fc.boolean(), (bank, account, spaced) => {
        const iban = makeSaudiIban(bank, account.join(''));
        expect(iban).toHaveLength(24);
        expect(ibanMod97(iban)).toBe(1);
        const typed = spaced ? formatIban(iban).toLowerCase() : iban;
        expect(normalizeIban(typed)).toBe(iban);
      }),
    );
  });
  it('refuses an IBAN whose check digits or any single character were changed', () => {
    fc.assert(
      fc.property(digits(2), digits(18), fc.integer({ min: 2, max: 23 }), fc.integer({ min: 1, max: 9 }), (bank, account, pos, delta) => {
        const iban = makeSaudiIban(bank, account);
        const d = iban.charCodeAt(pos) - 48;
        const changed = iban.slice(0, pos) + String((d + delta) % 10) + iban.slice(pos + 1);
        // A single-digit substitution always changes the value mod 97 (97 is prime and larger than 10).
        expect(normalizeIban(changed)).toBeNull();
      }),
    );
  });
  it('refuses other countries and lengths', () => {
    expect(normalizeIban('GB82WEST12345698765432')).toBeNull();
    expect(normalizeIban('SA03800000006080101675')).toBeNull();
    expect(normalizeIban('SA0380000000608010167519')).toBe('SA0380000000608010167519');
  });
});

describe('national and resident id (Luhn)', () => {
  it('accepts ids starting with 1 or 2 whose last digit is the Luhn check digit, and refuses any other last digit', () => {
    fc.assert(
      fc.property(fc.constantFrom('1', '2'), digits(8), fc.integer({ min: 1, max: 9 }), (first, rest, delta) => {
        const id = withLuhnDigit(first + rest);
        expect(isNationalOrResidentId(id)).toBe(true);
        const wrong = id.slice(0, 9) + String((Number(id[9]) + delta) % 10);
        expect(isNationalOrResidentId(wrong)).toBe(false);
      }),
    );
    fc.assert(fc.property(fc.constantFrom('0', '3', '9'), digits(8), (first, rest) => {
        expect(isNationalOrResidentId(withLuhnDigit(first + rest))).toBe(false);
      }));
  });
});

describe('mobile numbers', () => {
  it('normalizes every usual spelling of a Saudi mobile to the same E.164 number', () => {
    fc.assert(
      fc.property(digits(8), fc.constantFrom('0', '', '966', '+966', '00966'), fc.boolean(), (rest, prefix, spaced) => {
        const local = `5${rest}`;
        const typed = spaced ? `${prefix}${local.slice(0, 2)} ${local.slice(2, 5)} ${local.slice(5)}` : prefix + local;
        expect(normalizePhone(typed)).toBe(`+966${local}`);
      }),
    );
  });
  it('accepts international numbers of 8-15 digits and refuses Saudi landlines and short numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 7, max: 14 }).chain((n) => digits(n)), (first, rest) => {
        const n = `${first}${rest}`;
        fc.pre(!n.startsWith('966'));
        expect(normalizePhone(`+${n}`)).toBe(`+${n}`);
      }),
    );
    fc.assert(fc.property(digits(7), (rest) => {
        expect(normalizePhone(`011${rest}`)).toBeNull();
      }));
    fc.assert(fc.property(digits(7), (rest) => {
        expect(normalizePhone(`+96611${rest}`)).toBeNull();
      }));
    for (const bad of ['', '05', '5123', '+12', 'phone', '0551234567x']) expect(normalizePhone(bad)).toBeNull();
  });
  it('masks all but the country prefix and the last four digits', () => {
    fc.assert(
      fc.property(digits(8), (rest) => {
        const masked = maskPhone(`+9665${rest}`);
        expect(masked.endsWith(rest.slice(-4))).toBe(true);
        expect(masked).toContain('***');
        expect(masked.replace(/\D/g, '').length).toBeLessThan(`9665${rest}`.length);
      }),
    );
  });
});
