// Small files 云文档 writes whole (avatars, branding pictures): written under a temporary name
// of this process, then renamed into place, so a reader never sees half a file.
import fs from 'node:fs';
import path from 'node:path';

export async function writeFileAtomically(dir: string, name: string, bytes: Buffer): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true });
  const partial = path.join(dir, `${name}.${process.pid}.part`);
  await fs.promises.writeFile(partial, bytes);
  await fs.promises.rename(partial, path.join(dir, name));
}
