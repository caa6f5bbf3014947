// Reads a zip the server made (yauzl): every entry's name, compression method, UTF-8 flag and
// the MD5 of its content, checking its CRC-32 as an unzip program does (yauzl does not).
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import yauzl from 'yauzl';

export interface ZipEntryInfo {
  name: string;
  method: number;
  md5: string | null;
  utf8: boolean;
}

/** Every entry of a zip: its name, compression method, UTF-8 flag and the MD5 of its content. */
export function readZip(buffer: Buffer): Promise<ZipEntryInfo[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: ZipEntryInfo[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        const info: ZipEntryInfo = { name: entry.fileName, method: entry.compressionMethod, md5: null, utf8: (entry.generalPurposeBitFlag & 0x800) !== 0 };
        out.push(info);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const hash = crypto.createHash('md5');
          let crc = 0;
          stream.on('data', (c: Buffer) => {
            hash.update(c);
            crc = zlib.crc32(c, crc);
          });
          stream.on('error', reject);
          stream.on('end', () => {
            if (crc !== entry.crc32) return reject(new Error(`CRC-32 of ${entry.fileName} in the archive is ${entry.crc32}, its content's is ${crc}`));
            info.md5 = hash.digest('hex');
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
