/** Sessions (login, me, logout), guest registration and two-factor routes. */
import { Type } from 'typebox';
import { authOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  CodeBody,
  LoginBody,
  LoginResult,
  RegisterAccepted,
  RegisterBody,
  SessionResult,
  SetupResult,
  TwoFactorStatus,
  User,
  ValidateBody,
  VerifyEmailBody,
} from './auth.schemas.js';
import { toUser, type AuthService } from './auth.service.js';
import type { Sessions } from './sessions.js';

export const authRoutes: RoutePlugin<{ guard: GuardFactory; auth: AuthService; sessions: Sessions }> = async (
  app,
  { guard, auth, sessions },
) => {
  const signedIn = guard({ role: 'any' });
  const tags = ['auth'];

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in with email and password',
        description: 'Returns `{ user, token }`, or `{ requires_2fa, challenge_id }` when the account has two-factor on.',
        body: LoginBody,
        response: { 200: LoginResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return auth.login(request.body.email, request.body.password, request.ip);
    },
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        summary: 'The signed-in user (validates the token)',
        tags,
        security: [{ bearer: [] }],
        response: { 200: Type.Object({ user: User }), ...errorResponses(401) },
      },
      onRequest: signedIn,
    },
    async (request) => ({ user: toUser(authOf(request).user) }),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        summary: 'Sign out: end this session',
        tags,
        security: [{ bearer: [] }],
        response: { 200: SuccessBody, ...errorResponses(401) },
      },
      onRequest: signedIn,
    },
    async (request) => {
      await sessions.revoke(authOf(request).sessionId);
      return { success: true };
    },
  );

  app.post(
    '/api/auth/register',
    {
      schema: {
        tags,
        summary: 'Ask for a guest (consumer) account: mails a verification code',
        description:
          'Step 1 of 2. Answers 202 `{ verification_required: true }` for every address, whether or not it has an account, and ' +
          'creates or links nothing. The address is mailed a 6-digit code (valid 15 minutes, single use, 5 attempts; each ' +
          'registration keeps its own code and password, at most 3 waiting per address) or, when it already has an account, a ' +
          'reminder to sign in. Then call `POST /api/auth/verify-email`. Rate limited per client address and per registered ' +
          'address (429). Callers send `turnstile_token` when the bot ' +
          'check is on. (Changed in security round 2: this used to create the account at once (201) and answer 409 for a ' +
          'known address.)',
        body: RegisterBody,
        response: { 202: RegisterAccepted, ...errorResponses(400, 403, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return reply.code(202).send(await auth.register(request.body, request.ip));
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      schema: {
        tags,
        summary: 'Finish a guest registration with the mailed code',
        description:
          'Step 2 of 2. With a code `register` mailed, creates the guest account with that registration’s password (claiming the password-less guest record of ' +
          'that address from earlier bookings, if any) and answers `{ user, token }`. A wrong, expired, used or unknown code is ' +
          '400 (one message for all); wrong codes count per email and per client address like failed sign-ins (429). 409 when ' +
          'the address got an account in the meantime.',
        body: VerifyEmailBody,
        response: { 201: SessionResult, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return reply.code(201).send(await auth.verifyEmail(request.body, request.ip));
    },
  );

  app.get(
    '/api/2fa',
    {
      schema: {
        summary: 'Whether two-factor authentication is on for the caller',
        tags,
        security: [{ bearer: [] }],
        response: { 200: TwoFactorStatus, ...errorResponses(401) },
      },
      onRequest: signedIn,
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return auth.twoFactorStatus(authOf(request).user.id);
    },
  );

  app.post(
    '/api/2fa/setup',
    {
      schema: {
        summary: 'Start two-factor setup: a new authenticator secret and QR code',
        tags,
        security: [{ bearer: [] }],
        response: { 200: SetupResult, ...errorResponses(401, 409) },
      },
      onRequest: signedIn,
    },
    async (request) => auth.setupTwoFactor(authOf(request).user.id),
  );

  app.post(
    '/api/2fa/enable',
    {
      schema: {
        summary: 'Turn two-factor authentication on with a first code',
        tags,
        security: [{ bearer: [] }],
        body: CodeBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 409, 429) },
      },
      onRequest: signedIn,
    },
    async (request) => {
      await auth.enableTwoFactor(authOf(request).user.id, authOf(request).sessionId, request.body.code);
      return { success: true };
    },
  );

  app.post(
    '/api/2fa/disable',
    {
      schema: {
        summary: 'Turn two-factor authentication off with a current code',
        tags,
        security: [{ bearer: [] }],
        body: CodeBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 429) },
      },
      onRequest: signedIn,
    },
    async (request) => {
      await auth.disableTwoFactor(authOf(request).user.id, authOf(request).sessionId, request.body.code);
      return { success: true };
    },
  );

  app.post(
    '/api/2fa/validate',
    {
      schema: {
        tags,
        summary: 'Complete a two-factor sign-in',
        body: ValidateBody,
        response: { 200: SessionResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return auth.validateChallenge(request.body.challenge_id, request.body.code, request.ip);
    },
  );
};
