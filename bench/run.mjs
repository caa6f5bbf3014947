#!/usr/bin/env node
// `npm run bench`: runs the figures in bench/figures/ (each a module exporting
// { id, title, run() }), prints each one's table and writes bench/out/results.json.
//   node bench/run.mjs            every figure
//   node bench/run.mjs login      only the figures with these ids
// BENCH_RUNS=<n> changes the number of cold loads of figure 1 (default 15).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH, OUT, ensureDir } from './lib/util.mjs';
import { machineFacts, printMachine } from './lib/machine.mjs';

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const dir = path.join(BENCH, 'figures');
const modules = [];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
  const m = await import(pathToFileURL(path.join(dir, f)).href);
  if (!wanted.length || wanted.includes(m.id)) modules.push(m);
}
if (!modules.length) {
  console.error(`no figure matches ${wanted.join(', ')}`);
  process.exit(2);
}

const machine = machineFacts();
printMachine(machine);
const results = { date: new Date().toISOString(), node: process.version, machine, figures: {} };
let failed = 0;
for (const m of modules) {
  console.log(`\n== ${m.title}\n`);
  const t0 = Date.now();
  try {
    results.figures[m.id] = await m.run();
  } catch (err) {
    failed++;
    console.error(`figure ${m.id} failed: ${err.stack || err.message}`);
    results.figures[m.id] = { error: err.message };
  }
  console.log(`(${m.id}: ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
ensureDir(OUT);
fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify(results, null, 2));
console.log(`\nresults: ${path.relative(process.cwd(), path.join(OUT, 'results.json'))}`);
process.exit(failed ? 1 : 0);
