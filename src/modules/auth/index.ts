/**
 * The auth module: users, sessions and two-factor challenges (its tables), sign-in, registration and
 * TOTP. Other modules reach users only through the functions exported here.
 */
export { authRoutes } from './auth.routes.js';
export { createAuthService } from './auth.service.js';
export { hashPassword } from './passwords.js';
export { createSessions, type Sessions } from './sessions.js';
export {
  countClientUsers,
  countUsersByRole,
  deleteClientUser,
  deleteWalkInGuest,
  emailAccount,
  emailTaken,
  eraseGuestAccount,
  findClientUser,
  findClientUserByEmail,
  findClientUserOfAnyAccount,
  findGuest,
  guestProfiles,
  insertUser,
  insertWalkInGuest,
  listClientUsers,
  normaliseEmail,
  searchClientUsers,
  setMembershipTier,
  updateClientUser,
  userExists,
  userSummaries,
  WALK_IN_EMAIL_DOMAIN,
} from './users.repository.js';
export { batchGuestRecord, guestForEmail, guestRecordsByEmail, NEW_GUEST_RECORDS, type GuestRecord } from './guest-records.js';
export { authRetention } from './retention.js';
