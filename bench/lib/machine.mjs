// What the figures were measured on, printed at the top of a run and kept in results.json:
// the same product measures differently on another processor or browser build (a Chromium
// update once halved the browser's file reads here), and ratios only hold within one run.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { CHROMIUM } from '../../e2e/harness.mjs';

function chromiumVersion() {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return `not found (${CHROMIUM})`;
  }
}

export function machineFacts() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    load: os.loadavg().map((n) => n.toFixed(2)).join(' '),
    uptime: `${Math.round(os.uptime() / 60)} min`,
    kernel: os.release(),
    node: process.version,
    chromium: chromiumVersion(),
  };
}

export function printMachine(facts) {
  console.log(`machine: ${facts.cpu}, ${facts.memory}, load ${facts.load}, up ${facts.uptime}; Linux ${facts.kernel}; Node.js ${facts.node}; ${facts.chromium}`);
}
