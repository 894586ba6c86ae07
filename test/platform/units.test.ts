/** Pure platform helpers: configuration, permissions, ids, image sniffing. */
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config/config.js';
import { allows, effectivePermissions, grantsFromRows, PERMISSION_KEYS } from '../../src/platform/permissions.js';
import { newId, sequentialId } from '../../src/platform/ids.js';
import { createImageQueue } from '../../src/platform/image-queue.js';
import { decodeDataUrl, sniffImageType } from '../../src/platform/uploads.js';
import { TINY_IMAGES } from '../helpers/app.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:./data/maitred.db',
      publicBaseUrl: 'http://localhost:3000',
      paymentsProvider: 'simulated',
      platformFeePercent: 5,
      uploadsDir: './data/uploads',
      sessionTtlHours: 72,
      sessionMaxDays: 30,
      secretsKey: undefined,
      trustProxy: false,
    });
    // Failed logins: 10 per email-and-address pair and per address, 100 per email from all addresses.
    expect(config.rateLimits.login_failures_email_ip).toEqual({ points: 10, durationSeconds: 900 });
    expect(config.rateLimits.login_failures_ip).toEqual({ points: 10, durationSeconds: 900 });
    expect(config.rateLimits.login_failures_email).toEqual({ points: 100, durationSeconds: 900 });
    expect(config.rateLimits.two_factor_failures_user).toEqual({ points: 10, durationSeconds: 900 });
  });

  it('under NODE_ENV=production uses the simulated payment provider only when it is named', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).paymentsProvider).toBe('none');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'simulated' }).paymentsProvider).toBe('simulated');
    expect(loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x' }).paymentsProvider).toBe('stripe');
    expect(loadConfig({ NODE_ENV: 'development' }).paymentsProvider).toBe('simulated');
  });

  it('reads SECRETS_KEY as 32 bytes of hex or base64, and SESSION_MAX_DAYS', () => {
    const key = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64url') }).secretsKey).toEqual(key);
    expect(loadConfig({ SESSION_MAX_DAYS: '7' }).sessionMaxDays).toBe(7);
    // Fair shares under a crowd: 1 a turn by default, 0 turns pacing off, a negative count is refused.
    expect(loadConfig({}).fairSharePerTurn).toBe(1);
    expect(loadConfig({ FAIR_SHARE_PER_TURN: '0' }).fairSharePerTurn).toBe(0);
    expect(() => loadConfig({ FAIR_SHARE_PER_TURN: '-1' })).toThrow(ConfigError);
    // Memory given back when quiet: after 2 s by default, 0 off, a negative wait refused.
    expect(loadConfig({}).quietGcMs).toBe(2000);
    expect(loadConfig({ QUIET_GC_MS: '0' }).quietGcMs).toBe(0);
    expect(() => loadConfig({ QUIET_GC_MS: '-5' })).toThrow(ConfigError);
    expect(loadConfig({ RATE_LIMITS: 'login_failures_email=5/900' }).rateLimits.login_failures_email).toEqual({
      points: 5,
      durationSeconds: 900,
    });
  });

  it('chooses stripe when a secret key is set, and honours overrides', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }).paymentsProvider).toBe('stripe');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', PAYMENTS_PROVIDER: 'none' }).paymentsProvider).toBe('none');
    expect(loadConfig({ RATE_LIMITS: 'voucher_lookup=5/10' }).rateLimits.voucher_lookup).toEqual({ points: 5, durationSeconds: 10 });
    // TRUST_PROXY: a hop count (true is one proxy), or proxy addresses and ranges; never "every hop".
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({}).imageConcurrency).toBe(1);
    expect(loadConfig({ IMAGE_QUEUE_SIZE: '0' }).imageQueueSize).toBe(0);
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: 'Debug' }).logLevel).toBe('debug');
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ PAYMENTS_PROVIDER: 'paypal' }, /PAYMENTS_PROVIDER/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '11' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.1,example.com' }, /TRUST_PROXY/],
    [{ IMAGE_CONCURRENCY: '0' }, /IMAGE_CONCURRENCY/],
    [{ RATE_LIMITS: 'nonsense=1/1' }, /unknown limit/],
    [{ RATE_LIMITS: 'voucher_lookup=lots' }, /RATE_LIMITS/],
    [{ PLATFORM_FEE_PERCENT: '101' }, /PLATFORM_FEE_PERCENT/],
    [{ SECRETS_KEY: 'too-short' }, /SECRETS_KEY/],
    [{ SECRETS_KEY: 'ab'.repeat(31) }, /SECRETS_KEY/],
    [{ SECRETS_KEY: Buffer.alloc(16).toString('base64') }, /SECRETS_KEY/],
    [{ SESSION_MAX_DAYS: '0' }, /SESSION_MAX_DAYS/],
    [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('permissions', () => {
  const grants = grantsFromRows([
    { permission_key: 'users', can_read: 1, can_write: 0 },
    { permission_key: 'tables', can_read: 0, can_write: 1 },
  ]);

  it('a parent grant covers its children and write implies read', () => {
    expect(allows(grants, 'users.role', 'read')).toBe(true);
    expect(allows(grants, 'users.role', 'write')).toBe(false);
    expect(allows(grants, 'tables', 'read')).toBe(true);
    expect(allows(grants, 'tables', 'write')).toBe(true);
    expect(allows(grants, 'venues.settings', 'read')).toBe(false);
    expect(allows(new Map(), 'anything', 'write', true)).toBe(true);
  });

  it('the effective map covers the whole catalogue, including the keys the decisions name', () => {
    const map = effectivePermissions(grants, false);
    expect(Object.keys(map).sort()).toEqual([...PERMISSION_KEYS].sort());
    for (const key of [
      'operators.settings',
      'operators.members',
      'operators.audit',
      'users.role',
      'users.user',
      'availability',
      'tables',
      'profiles',
      'catalogue',
      'guests',
      'bookings',
      'events',
      'vouchers',
      'payouts',
      'stats',
    ]) {
      expect(PERMISSION_KEYS).toContain(key);
    }
    expect(map['users.user']).toEqual({ read: true, write: false });
  });
});

describe('ids', () => {
  it('are prefixed, 128-bit and unique', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('bkg')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^bkg_[a-z2-7]{26}$/);
  });

  it('sequential ids sort in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => sequentialId('bkh'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids.slice(0, 10)) expect(id).toMatch(/^bkh_[0-9a-z]{13}[a-z2-7]{16}$/);
  });
});

describe('image recognition', () => {
  it.each(Object.entries(TINY_IMAGES))('recognises %s by its bytes', (type, url) => {
    expect(sniffImageType(decodeDataUrl(url))).toBe(type);
  });

  it('refuses SVG and other bytes, and bad base64', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    expect(sniffImageType(svg)).toBeUndefined();
    expect(sniffImageType(Buffer.from('%PDF-1.4'))).toBeUndefined();
    expect(() => decodeDataUrl('data:image/png;base64,@@@')).toThrow(/base64/);
    expect(() => decodeDataUrl('data:image/png,rawtext')).toThrow(/data URL/);
    expect(() => decodeDataUrl(42)).toThrow(/data URL/);
  });
});

describe('upload size messages', () => {
  it('never make an oversized image read as equal to the limit', async () => {
    const { createUploads, UPLOAD_LIMITS } = await import('../../src/platform/uploads.js');
    const { pngOfSize } = await import('../helpers/app.js');
    const os = await import('node:os');
    const uploads = createUploads({
      dir: `${os.tmpdir()}/maitred-units-uploads`,
      queue: createImageQueue({ concurrency: 1, queueSize: 0 }),
    });
    await expect(uploads.saveImage(pngOfSize(UPLOAD_LIMITS.brandLogo + 1), UPLOAD_LIMITS.brandLogo)).rejects.toThrow(
      'Image is too large: 2.1 MB exceeds the 2 MB limit',
    );
    await expect(uploads.saveImage(pngOfSize(UPLOAD_LIMITS.venueLogo + 1), UPLOAD_LIMITS.venueLogo)).rejects.toThrow(
      'Image is too large: 501 KB exceeds the 500 KB limit',
    );
    const stored = await uploads.saveImage(pngOfSize(UPLOAD_LIMITS.venueLogo), UPLOAD_LIMITS.venueLogo);
    expect(stored).toMatchObject({
      type: 'png',
      bytes: UPLOAD_LIMITS.venueLogo,
      // Stored as a path; answers make it absolute under the base URL of the moment.
      url: expect.stringMatching(/^\/uploads\/[0-9a-f]{64}\.png$/),
    });
  });
});
