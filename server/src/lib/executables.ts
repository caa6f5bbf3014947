// Finding the system programs 云文档 calls (ClamAV, LibreOffice): the first executable of
// that name on PATH.
import fs from 'node:fs';
import path from 'node:path';

export function which(command: string, searchPath: string = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* next */
    }
  }
  return null;
}
