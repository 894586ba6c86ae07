import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatVoucherCode, generateVoucherCode, normaliseVoucherCode, VOUCHER_CODE_ALPHABET, VOUCHER_CODE_LENGTH } from './codes.js';

const codeArb = fc
  .array(fc.constantFrom(...VOUCHER_CODE_ALPHABET), { minLength: VOUCHER_CODE_LENGTH, maxLength: VOUCHER_CODE_LENGTH })
  .map((chars) => chars.join(''));

describe('voucher codes', () => {
  it('uses 32 symbols without look-alikes', () => {
    expect(VOUCHER_CODE_ALPHABET).toHaveLength(32);
    expect(new Set(VOUCHER_CODE_ALPHABET).size).toBe(32);
    for (const lookalike of ['I', 'O', '0', '1']) expect(VOUCHER_CODE_ALPHABET).not.toContain(lookalike);
  });

  it('generates 12 characters of the alphabet, drawing each with the given generator over the whole alphabet', () => {
    const draws: number[] = [];
    const code = generateVoucherCode((max) => {
      draws.push(max);
      return draws.length - 1;
    });
    expect(code).toBe(VOUCHER_CODE_ALPHABET.slice(0, 12));
    expect(draws).toEqual(Array(12).fill(32));
    expect(generateVoucherCode(() => 31)).toBe('999999999999');
  });

  it('generates distinct codes with the default (cryptographic) generator', () => {
    const codes = Array.from({ length: 5000 }, () => generateVoucherCode());
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(normaliseVoucherCode(code)).toBe(code);
    // Every symbol turns up (60,000 draws of 32 symbols).
    expect(new Set(codes.join('')).size).toBe(32);
  });

  it('formats grouped and reads back grouped, plain, in any case and with stray separators', () => {
    expect(formatVoucherCode('ABCDEFGHJKLM')).toBe('ABCD-EFGH-JKLM');
    fc.assert(
      fc.property(codeArb, fc.constantFrom('-', ' ', ' - ', '\u2013', ''), fc.boolean(), (code, separator, lower) => {
        const grouped = formatVoucherCode(code).replaceAll('-', separator);
        const typed = lower ? grouped.toLowerCase() : grouped;
        expect(normaliseVoucherCode(`  ${typed} `)).toBe(code);
        expect(formatVoucherCode(code)).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      }),
    );
  });

  it.each([
    ['', 'empty'],
    ['ABCD-EFGH-JKL', 'too short'],
    ['ABCD-EFGH-JKLMN', 'too long'],
    ['ABCD-EFGH-JKL0', 'a zero'],
    ['ABCD-EFGH-JKLO', 'the letter O'],
    ['ABCD-EFGH-JKL1', 'a one'],
    ['ABCD-EFGH-JKLI', 'the letter I'],
    ['ABCD_EFGH_JKLM', 'underscores'],
    ['ABCD.EFGH.JKLM', 'dots'],
    ['ÄBCD-EFGH-JKLM', 'a letter outside ASCII'],
  ])('refuses %j (%s)', (input) => {
    expect(normaliseVoucherCode(input)).toBeUndefined();
  });

  it('refuses anything holding a character outside the alphabet and the separators', () => {
    fc.assert(
      fc.property(codeArb, fc.integer({ min: 0, max: 11 }), fc.constantFrom('0', '1', 'O', 'I', '#', 'é', '_', '/'), (code, at, bad) => {
        expect(normaliseVoucherCode(code.slice(0, at) + bad + code.slice(at + 1))).toBeUndefined();
      }),
    );
  });
});
