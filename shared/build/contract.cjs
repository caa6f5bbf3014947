// The shell ↔ remote contract version, read at build time from shared/src/contract.ts (its one
// source) so that the web build can inline it into each bundle as __REMOTE_CONTRACT_VERSION__.
const fs = require('node:fs');
const path = require('node:path');

const CONTRACT_SOURCE = path.join(__dirname, '..', 'src', 'contract.ts');

function readContractVersion(file = CONTRACT_SOURCE) {
  const text = fs.readFileSync(file, 'utf8');
  const m = text.match(/^export const REMOTE_CONTRACT_VERSION = (\d+);$/m);
  if (!m) throw new Error(`${file}: no "export const REMOTE_CONTRACT_VERSION = <number>;" line`);
  return Number(m[1]);
}

module.exports = { readContractVersion, CONTRACT_SOURCE };
