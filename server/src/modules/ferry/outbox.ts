// Where packages for an HTTPS peer wait until a push succeeds. With local storage, a folder per
// peer under `$DATA_DIR/ferry/outbox` (as the spool channel writes its folders). With S3, the
// object store under `ferry/outbox/<peer>/<package>.pkg/…`, so that any instance pushes what
// any other packed, also after that one is gone: the package is packed into a temporary folder,
// its files and manifest go into the store and its signature last (a package without
// `manifest.sig` is not complete yet and is not pushed); a push reads it back into a temporary
// folder.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../storage/store';

const PACKAGE_SUFFIX = '.pkg';
const SIGNATURE = 'manifest.sig';
/** writePackage's temporary folder of a package being written (spool.ts TEMP_PREFIX) */
const INCOMING = '.incoming-';

export class FerryOutbox {
  private readonly shared: boolean;

  /** `localRoot`: `$DATA_DIR/ferry/outbox`, used with local storage. */
  constructor(
    private readonly store: ObjectStore,
    private readonly localRoot: string,
  ) {
    this.shared = store.kind !== 'local';
  }

  private peerName(zone: string): string {
    return Buffer.from(zone).toString('hex');
  }

  /** The local folder of a peer's packages (local storage). */
  dirOf(zone: string): string {
    return path.join(this.localRoot, this.peerName(zone));
  }

  private prefixOf(zone: string, name?: string): string {
    return `ferry/outbox/${this.peerName(zone)}/${name ? `${name}/` : ''}`;
  }

  /**
   * Puts a package for `zone` in the outbox: `write(dir)` packs it into `dir` (writePackage),
   * unless a package of that id waits there already (null: always a new one).
   */
  async put(zone: string, packageId: string | null, write: (dir: string) => Promise<unknown>): Promise<void> {
    if (!this.shared) {
      const dir = this.dirOf(zone);
      if (packageId) {
        await fs.promises.rm(path.join(dir, `${INCOMING}${packageId}`), { recursive: true, force: true });
        if (fs.existsSync(path.join(dir, `${packageId}${PACKAGE_SUFFIX}`))) return;
      }
      await write(dir);
      return;
    }
    if (packageId && (await this.store.stat(`${this.prefixOf(zone, `${packageId}${PACKAGE_SUFFIX}`)}${SIGNATURE}`))) return;
    const temp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'yunwendang-ferry-out-'));
    try {
      await write(temp);
      for (const name of (await fs.promises.readdir(temp)).filter((n) => n.endsWith(PACKAGE_SUFFIX))) {
        const dir = path.join(temp, name);
        const files = (await fs.promises.readdir(dir, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
        // the signature last: until it is there, the package is not complete
        files.sort((a, b) => Number(a === SIGNATURE) - Number(b === SIGNATURE));
        for (const f of files) {
          const file = path.join(dir, f);
          await this.store.put(`${this.prefixOf(zone, name)}${f}`, fs.createReadStream(file), (await fs.promises.stat(file)).size);
        }
      }
    } finally {
      await fs.promises.rm(temp, { recursive: true, force: true });
    }
  }

  /** The complete packages waiting for `zone`, oldest name first. */
  async waiting(zone: string): Promise<string[]> {
    if (!this.shared) {
      return (await fs.promises.readdir(this.dirOf(zone)).catch(() => [] as string[])).filter((n) => n.endsWith(PACKAGE_SUFFIX)).sort();
    }
    const prefix = this.prefixOf(zone);
    const names = new Set<string>();
    for await (const o of this.store.list(prefix)) {
      const [name, ...rest] = o.key.slice(prefix.length).split('/');
      if (name.endsWith(PACKAGE_SUFFIX) && rest.join('/') === SIGNATURE) names.add(name);
    }
    return [...names].sort();
  }

  /** Runs `fn` with the package as a folder (S3: a temporary copy, removed afterwards). */
  async withPackage<T>(zone: string, name: string, fn: (dir: string) => Promise<T>): Promise<T> {
    if (!this.shared) return fn(path.join(this.dirOf(zone), name));
    const temp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'yunwendang-ferry-push-'));
    try {
      const dir = path.join(temp, `${crypto.randomBytes(4).toString('hex')}${PACKAGE_SUFFIX}`);
      const prefix = this.prefixOf(zone, name);
      for await (const o of this.store.list(prefix)) {
        const rel = o.key.slice(prefix.length);
        const file = path.join(dir, ...rel.split('/'));
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await pipeline(await this.store.get(o.key), fs.createWriteStream(file));
      }
      return await fn(dir);
    } finally {
      await fs.promises.rm(temp, { recursive: true, force: true });
    }
  }

  /** The package was delivered or refused for good: it leaves the outbox. */
  async remove(zone: string, name: string): Promise<void> {
    if (!this.shared) {
      await fs.promises.rm(path.join(this.dirOf(zone), name), { recursive: true, force: true });
      return;
    }
    const keys: string[] = [];
    for await (const o of this.store.list(this.prefixOf(zone, name))) keys.push(o.key);
    // the signature first: a removal cut short leaves an incomplete package, never pushed again
    keys.sort((a, b) => Number(b.endsWith(`/${SIGNATURE}`)) - Number(a.endsWith(`/${SIGNATURE}`)));
    if (keys.length) await this.store.delete(keys.slice(0, 1));
    if (keys.length > 1) await this.store.delete(keys.slice(1));
  }
}
