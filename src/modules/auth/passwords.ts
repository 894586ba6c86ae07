/** Password hashing with argon2id (OWASP parameters); verification never throws on a malformed hash. */
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

// Verified against when the email is unknown, so a wrong email costs what a wrong password costs.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  try {
    if (!stored) {
      dummyHash ??= hashPassword('not-a-real-password');
      await verify(await dummyHash, password);
      return false;
    }
    return await verify(stored, password);
  } catch {
    return false;
  }
}
