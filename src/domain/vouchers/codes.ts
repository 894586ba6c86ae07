/**
 * Gift-voucher codes: 12 characters from an alphabet without look-alikes (no I, O, 0 or 1), so a code
 * read off paper or a phone is typed right. 32 symbols × 12 = 60 random bits, drawn with a
 * cryptographically secure generator. Stored plain and upper-case; shown grouped `XXXX-XXXX-XXXX`;
 * accepted grouped or plain, in any case, with stray spaces or dashes.
 */
import { randomInt } from 'node:crypto';

export const VOUCHER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const VOUCHER_CODE_LENGTH = 12;
const GROUP = 4;

const PLAIN_CODE = new RegExp(`^[${VOUCHER_CODE_ALPHABET}]{${VOUCHER_CODE_LENGTH}}$`);
// Whitespace and every kind of dash a keyboard or a word processor produces.
const SEPARATORS = /[\s\-\u2010-\u2015\u2212]+/g;

/** A new random code, plain (`random(n)` draws an integer in [0, n); the default is crypto's). */
export function generateVoucherCode(random: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < VOUCHER_CODE_LENGTH; i++) code += VOUCHER_CODE_ALPHABET[random(VOUCHER_CODE_ALPHABET.length)];
  return code;
}

/** The plain code a guest or member of staff typed, or undefined when it cannot be a voucher code. */
export function normaliseVoucherCode(input: string): string | undefined {
  const plain = input.replace(SEPARATORS, '').toUpperCase();
  return PLAIN_CODE.test(plain) ? plain : undefined;
}

/** `ABCD-EFGH-JKLM`: how a code is shown. */
export function formatVoucherCode(code: string): string {
  const groups: string[] = [];
  for (let i = 0; i < code.length; i += GROUP) groups.push(code.slice(i, i + GROUP));
  return groups.join('-');
}
