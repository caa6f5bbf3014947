// Secrets that 云文档 must be able to read back (a user's TOTP key) are sealed with
// AES-256-GCM. The key comes from SECRET_KEY, or else from `$DATA_DIR/secret.key`, made on the
// first start (mode 0600) and then shared by every instance that shares the data directory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const KEY_FILE = 'secret.key';

export class SecretBox {
  private readonly key: Buffer;

  constructor(material: string) {
    // any text of at least 32 characters; SHA-256 makes it exactly the 32 bytes AES-256 needs
    this.key = crypto.createHash('sha256').update(material, 'utf8').digest();
  }

  /** SECRET_KEY when set, else the data directory's key file (made now if there is none). */
  static load(secretKey: string | null, dataDir: string): SecretBox {
    if (secretKey) return new SecretBox(secretKey);
    const file = path.join(dataDir, KEY_FILE);
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const material = fs.readFileSync(file, 'utf8').trim();
    if (material.length < 32) throw new Error(`密钥文件 ${file} 已损坏（少于 32 个字符）`);
    return new SecretBox(material);
  }

  /** Tells keys apart without revealing them: instances compare it to find a different SECRET_KEY. */
  fingerprint(): string {
    return crypto.createHmac('sha256', this.key).update('yunwendang-instance-key-check').digest('hex').slice(0, 16);
  }

  /** `v1.<iv>.<tag>.<ciphertext>` (base64url); `purpose` binds the text to its use. */
  seal(plain: string, purpose: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** The plain text, or null when the sealed text is damaged, sealed for another purpose or with another key. */
  open(sealed: string, purpose: string): string | null {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) return null;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
