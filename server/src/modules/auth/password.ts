// Password hashing for 云文档: scrypt (memory-hard), a random salt per password, the cost
// parameters stored with the hash, a timing-safe comparison, and the same work for
// accounts that do not exist.
import crypto from 'node:crypto';
import type { PasswordPolicy } from '../settings/schemas';

const SCHEME = 'scrypt';
/** N = 2^15, r = 8: 32 MiB and tens of milliseconds per hash. Raise later; old hashes keep their own. */
const DEFAULT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };
const SALT_BYTES = 16;

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** `scrypt$N$r$p$<salt>$<key>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength } = DEFAULT_PARAMS;
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, r, p, keyLength);
  return [SCHEME, N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * The hash of a generated initial password (批量导入): at least 120 random bits, so the memory-hard
 * cost that protects a chosen password buys nothing here; N = 2^10 keeps an import of 10,000
 * people fast. The person must change it at the first sign-in, and the new one gets the full cost.
 */
export async function hashInitialPassword(password: string): Promise<string> {
  const N = 2 ** 10;
  const { r, p, keyLength } = DEFAULT_PARAMS;
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, r, p, keyLength);
  return [SCHEME, N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

let dummyHash: Promise<string> | undefined;

/** True when the password matches the stored hash. A null hash (unknown account) costs the same and fails. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  const parsed = parse(stored ?? '') ?? parse(await dummyHash)!;
  const key = await derive(password, parsed.salt, parsed.N, parsed.r, parsed.p, parsed.key.length);
  const same = crypto.timingSafeEqual(key, parsed.key);
  return same && stored !== null && parse(stored) !== null;
}

/** The Chinese reason a password breaks the policy, or null when it complies. */
export function passwordPolicyViolation(policy: PasswordPolicy, password: string): string | null {
  const needs: string[] = [];
  if (policy.requireMixedCase) needs.push('大写字母', '小写字母');
  else if (policy.requireLetter) needs.push('字母');
  if (policy.requireDigit) needs.push('数字');
  if (policy.requireSymbol) needs.push('符号');
  const rule = `密码至少 ${policy.minLength} 位${needs.length ? `，且须包含${needs.join('、')}` : ''}`;
  if ([...password].length < policy.minLength) return rule;
  if (policy.requireLetter && !/\p{L}/u.test(password)) return rule;
  if (policy.requireMixedCase && !(/\p{Lu}/u.test(password) && /\p{Ll}/u.test(password))) return rule;
  if (policy.requireDigit && !/\p{Nd}/u.test(password)) return rule;
  if (policy.requireSymbol && !/[^\p{L}\p{Nd}\s]/u.test(password)) return rule;
  return null;
}

/** A random password that satisfies the policy (the generated first admin password). */
export function generatePassword(policy: PasswordPolicy): string {
  for (;;) {
    const candidate = `${crypto.randomBytes(15).toString('base64url')}-${crypto.randomInt(10)}Aa`;
    if (!passwordPolicyViolation(policy, candidate)) return candidate;
  }
}

/** The password hash of an account made by a directory: nothing verifies against it. */
export const NO_LOCAL_PASSWORD = '!directory';

/**
 * Why the account's password cannot be changed in 云文档 (its directory keeps it), or null.
 * 个人设置 shows it instead of the form; the change call refuses with it.
 */
export function passwordKeptElsewhere(user: { source: string; password_hash: string | null }): string | null {
  if (user.source === 'ldap') return '你的账号使用公司目录（LDAP）的密码登录，请在目录中修改密码';
  if (user.password_hash === NO_LOCAL_PASSWORD) return '你的账号由钉钉同步而来，没有本系统的密码，请用钉钉登录';
  return null;
}
