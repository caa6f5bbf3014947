// Helpers shared by the figures of `npm run bench`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(BENCH);
export const OUT = path.join(BENCH, 'out');

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const gzip9 = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
export const ms = (n) => `${Math.round(n)} ms`;
export const ratio = (a, b) => (b ? `${(a / b).toFixed(2)}×` : 'n/a');

/** Prints a plain-text table: columns = [{ key, title, align? }]. */
export function printTable(columns, rows) {
  const cells = rows.map((r) => columns.map((c) => String(r[c.key] ?? '')));
  const width = (s) => [...s].reduce((w, ch) => w + (/[\u1100-\uffff]/.test(ch) ? 2 : 1), 0);
  const widths = columns.map((c, i) => Math.max(width(c.title), ...cells.map((row) => width(row[i]))));
  const pad = (s, w, right) => (right ? ' '.repeat(w - width(s)) + s : s + ' '.repeat(w - width(s)));
  const line = (vals) => vals.map((v, i) => pad(v, widths[i], columns[i].align === 'right')).join('  ');
  console.log(line(columns.map((c) => c.title)).trimEnd());
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells) console.log(line(row).trimEnd());
}

/** Builds an Rspack configuration (object) with the repository's @rspack/core. */
export async function rspackBuild(config) {
  const { rspack } = await import('@rspack/core');
  return new Promise((resolve, reject) => {
    rspack(config, (err, stats) => {
      if (err) return reject(err);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve(stats);
    });
  });
}

export function ensureDir(dir) {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** mulberry32: the same pseudo-random sequence for a seed in every run. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
