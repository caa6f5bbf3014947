// Reads a zip the product made: every entry, name → content (directories end with /, content null).
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from '../harness.mjs';

// a dependency of the server (its tests read zips too)
const yauzl = createRequire(path.join(ROOT, 'server', 'package.json'))('yauzl');

/** `source`: the zip's bytes, or the path of a zip file. */
export function readZip(source) {
  const open = Buffer.isBuffer(source) ? yauzl.fromBuffer.bind(yauzl, source) : yauzl.open.bind(yauzl, source);
  return new Promise((resolve, reject) => {
    open({ lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map();
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) {
          entries.set(entry.fileName, null);
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const parts = [];
          stream.on('data', (d) => parts.push(d));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
