// TOTP (RFC 6238) for 云文档 sign-in, through the otpauth library: SHA-1, 6 digits, 30-second
// steps, the authenticator apps' defaults. A code is accepted for the step before, the current
// step and the step after (clock drift), and only for a step later than the last one used.
import * as OTPAuth from 'otpauth';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** steps either side of now that still count */
const WINDOW = 1;

export const TOTP_ISSUER = '云文档';

/** A new random key (160 bits), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** otpauth://totp/云文档:<user>?secret=…: what the QR code on the binding step holds. */
export function totpUri(secret: string, userName: string): string {
  return totpOf(secret, userName).toString();
}

/** The code of a key at a moment (tests, and the bench). */
export function totpCodeAt(secret: string, timestamp: number): string {
  return totpOf(secret).generate({ timestamp });
}

/**
 * The time step a code belongs to, or null when it is wrong, not 6 digits, or of a step at or
 * before `lastStep` (a replay).
 */
export function acceptedStep(secret: string, code: string, now: number, lastStep: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  return step > lastStep ? step : null;
}
