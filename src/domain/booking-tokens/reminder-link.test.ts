import { describe, expect, it } from 'vitest';
import { signReminderToken, verifyReminderToken } from './reminder-link.js';
import { signManageToken } from './manage-link.js';

const SECRET = 's'.repeat(32);
const NOW = new Date('2026-06-15T12:00:00Z');
const EXP = new Date('2026-06-19T18:00:00Z');

describe('reminder-link tokens', () => {
  it('round-trips the booking and action until the expiry', () => {
    const token = signReminderToken({ bookingId: 'bk_1', action: 'cancel', expiresAt: EXP }, SECRET);
    expect(verifyReminderToken(token, SECRET, NOW)).toEqual({ ok: true, bookingId: 'bk_1', action: 'cancel', expiresAt: EXP });
    expect(verifyReminderToken(token, SECRET, EXP)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses another secret, another action, a manage token and junk', () => {
    const token = signReminderToken({ bookingId: 'bk_1', action: 'confirm', expiresAt: EXP }, SECRET);
    expect(verifyReminderToken(token, 't'.repeat(32), NOW)).toEqual({ ok: false, reason: 'bad_signature' });
    const [head, payload, tag] = token.split('.');
    const swapped = Buffer.from(JSON.stringify({ b: 'bk_1', a: 'cancel', exp: EXP.getTime() })).toString('base64url');
    expect(payload).not.toBe(swapped);
    expect(verifyReminderToken(`${head}.${swapped}.${tag}`, SECRET, NOW).ok).toBe(false);
    expect(verifyReminderToken(signManageToken({ bookingId: 'bk_1', expiresAt: EXP }, SECRET), SECRET, NOW)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    for (const junk of [undefined, 42, '', 'rl1', 'rl1.a.b']) expect(verifyReminderToken(junk, SECRET, NOW).ok).toBe(false);
  });
});
