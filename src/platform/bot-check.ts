/**
 * The guest bot check (Cloudflare Turnstile). Disabled when no secret is configured. The provider's
 * documented test secrets are answered locally without a network call (decisions: Bot check).
 */
import { AppError, badRequest } from './errors.js';

const ALWAYS_PASS = '1x0000000000000000000000000000000AA';
const ALWAYS_FAIL = '2x0000000000000000000000000000000AA';

export interface BotCheck {
  enabled: boolean;
  siteKey: string | null;
  /** Throws 400 when the token is missing and 403 when the provider rejects it. */
  verify(token: string | undefined | null, remoteIp?: string): Promise<void>;
}

export function createBotCheck(options: { siteKey?: string; secretKey?: string; verifyUrl: string }): BotCheck {
  const { secretKey } = options;
  const reject = () => new AppError(403, 'The bot check failed. Please try again.');
  return {
    enabled: Boolean(secretKey),
    siteKey: options.siteKey ?? null,
    async verify(token, remoteIp) {
      if (!secretKey) return;
      if (!token || typeof token !== 'string') throw badRequest('turnstile_token is required');
      if (secretKey === ALWAYS_PASS) return;
      if (secretKey === ALWAYS_FAIL) throw reject();
      const body = new URLSearchParams({ secret: secretKey, response: token });
      if (remoteIp) body.set('remoteip', remoteIp);
      let success: boolean;
      try {
        const response = await fetch(options.verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
        const result = (await response.json()) as { success?: boolean };
        success = result.success === true;
      } catch {
        throw new AppError(502, 'The bot check could not be completed. Please try again.');
      }
      if (!success) throw reject();
    },
  };
}
