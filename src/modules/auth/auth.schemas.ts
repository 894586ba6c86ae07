import { Type, type Static } from 'typebox';
import { Email } from '../../platform/http.js';

/** Passwords set by a person: at least 8 characters. */
export const NewPassword = Type.String({ minLength: 8, maxLength: 200 });

export const User = Type.Object({
  id: Type.String(),
  role: Type.String({ description: '`client` is the operator role; `guest` a consumer' }),
  name: Type.String(),
  email: Type.String(),
  operator_id: Type.Union([Type.String(), Type.Null()]),
});
export type User = Static<typeof User>;

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});

export const SessionResult = Type.Object({ user: User, token: Type.String() });

export const LoginResult = Type.Union([SessionResult, Type.Object({ requires_2fa: Type.Literal(true), challenge_id: Type.String() })]);

export const RegisterBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Email,
  password: NewPassword,
  // Bot-check tokens are at most 2048 characters.
  turnstile_token: Type.Optional(Type.String({ maxLength: 2048 })),
});

export const RegisterAccepted = Type.Object({
  verification_required: Type.Literal(true, { description: 'always true: the code (or a sign-in reminder) was mailed to the address' }),
});

export const VerifyEmailBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  code: Type.String({ maxLength: 6, pattern: '^\\d{6}$', description: 'the 6-digit code mailed by register' }),
});

const Code = Type.String({ maxLength: 6, pattern: '^\\d{6}$', description: 'a 6-digit code' });
export const CodeBody = Type.Object({ code: Code });
export const ValidateBody = Type.Object({ challenge_id: Type.String({ minLength: 1, maxLength: 100 }), code: Code });
export const SetupResult = Type.Object({ secret: Type.String(), otpauth_url: Type.String(), qr_code: Type.String() });
export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean({ description: 'true when signing in asks for an authenticator code' }),
});
