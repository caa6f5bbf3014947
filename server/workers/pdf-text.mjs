// The text of a PDF, read in a worker thread of 云文档's server (pdf.js, legacy build for
// Node 20) so that a slow or hostile file can be stopped without stopping the server.
// workerData: { file, limit, assets } (assets: pdfjs-dist's folder, for its CMaps and fonts).
// Replies { text } or { error }. Plain JavaScript: it is loaded as it is, by src and dist alike.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { file, limit, assets } = workerData;
try {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(await fs.readFile(file));
  const doc = await getDocument({
    data,
    cMapUrl: `${path.join(assets, 'cmaps')}/`,
    cMapPacked: true,
    standardFontDataUrl: `${path.join(assets, 'standard_fonts')}/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const parts = [];
  let length = 0;
  for (let n = 1; n <= doc.numPages && length < limit; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
    parts.push(text);
    length += text.length + 1;
    page.cleanup();
  }
  await doc.destroy();
  parentPort.postMessage({ text: parts.join('\n').slice(0, limit) });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
