/**
 * Booking tokens: the signed, expiring texts that name a booking outside the API's sessions — the QR
 * code a door device checks offline (Ed25519, per venue) and the guest's manage link (HMAC, server secret).
 */
export {
  claimedQrVenue,
  generateVenueKeyPair,
  QR_CLOCK_SKEW_MS,
  QR_TOKEN_MAX_LENGTH,
  QR_TOKEN_TTL_MS,
  signQrToken,
  venuePublicKey,
  verifyQrToken,
} from './qr-token.js';
export { MANAGE_LINK_GRACE_MS, MANAGE_TOKEN_MAX_LENGTH, manageLinkExpiry, signManageToken, verifyManageToken } from './manage-link.js';
export { REMINDER_TOKEN_MAX_LENGTH, signReminderToken, verifyReminderToken, type ReminderAction } from './reminder-link.js';
export { signWaitlistToken, verifyWaitlistToken } from './waitlist-link.js';
