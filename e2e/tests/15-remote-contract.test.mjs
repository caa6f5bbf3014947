// Independent deploys across releases (shared/src/contract.ts): a remote deployed on its own
// from a release one contract version ahead still loads and works; one far outside the range
// the shell supports is refused with a notice in its place only, while the menu and the other
// remotes keep working.
//
// The fixture remotes are today's builds, copied and served on their own, with the contract
// number their './meta' chunk reports rewritten (the build inlines it as a literal argument of
// remoteMeta(); see shared/build/rspack-config.cjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  ROOT, TEXT, clickMainMenu, missingBuilds, navigateInApp, recordRequests, signInThroughPage, startServer,
  startStatic, waitForPath, withBrowser,
} from '../harness.mjs';

const { readContractVersion } = createRequire(import.meta.url)('../../shared/build/contract.cjs');
const CONTRACT = readContractVersion();
const T = { timeout: 120_000 };

/** A copy of remote-<name>/dist whose './meta' reports `contract`; returns its folder. */
function fixtureRemote(name, contract) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `yunwendang-e2e-contract-${name}-`));
  fs.cpSync(path.join(ROOT, `remote-${name}`, 'dist'), dir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8'));
  const meta = manifest.exposes.find((e) => e.name === 'meta');
  assert.ok(meta, `remote-${name}'s manifest exposes ./meta`);
  const literal = new RegExp(`(remoteMeta\\)?\\("${name}",\\s*)${CONTRACT}\\)`);
  let patched = 0;
  for (const file of meta.assets.js.sync) {
    const full = path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    if (!literal.test(text)) continue;
    fs.writeFileSync(full, text.replace(literal, `$1${contract})`));
    patched += 1;
  }
  assert.equal(patched, 1, `found remoteMeta("${name}", ${CONTRACT}) in the ./meta chunk of remote-${name}/dist (rebuilt?)`);
  return dir;
}

describe('remotes of another contract version', () => {
  test('one version ahead loads and works; one far ahead is refused in its place only', T, async (t) => {
    const notBuilt = missingBuilds('server/dist/server.js', 'shell/dist/index.html', 'remote-files/dist/mf-manifest.json', 'remote-workflow/dist/mf-manifest.json');
    if (notBuilt) throw new Error(notBuilt);
    const ahead = CONTRACT + 1;
    const farAhead = CONTRACT + 3;
    const dirs = [];
    const started = [];
    try {
      dirs.push(fixtureRemote('files', ahead), fixtureRemote('workflow', farAhead));
      const files = await startStatic(dirs[0]);
      started.push(files);
      const workflow = await startStatic(dirs[1]);
      started.push(workflow);
      const server = await startServer({
        remotes: { files: `${files.url}/mf-manifest.json`, workflow: `${workflow.url}/mf-manifest.json` },
      });
      started.unshift(server);
      await withBrowser(t, async ({ page }) => {
        const urls = recordRequests(page);
        await signInThroughPage(page, server, server.adminUser, server.adminPassword);
        // the files remote one contract ahead renders the personal space
        await waitForPath(page, '/file/personal');
        await page.getByText(TEXT.personalTitle).first().waitFor();
        await page.locator('.ant-table, .ant-empty').or(page.getByText(TEXT.empty)).first().waitFor();
        assert.ok(urls.some((u) => u.startsWith(`${files.url}/remoteEntry.js`)), 'the files remote came from its own server');

        // the workflow remote far ahead: the notice names both versions, in its place only
        await clickMainMenu(page, TEXT.menuWorkflow);
        await waitForPath(page, /^\/workflow\//);
        const notice = page.getByRole('alert').filter({ hasText: '模块版本不兼容' });
        await notice.waitFor({ timeout: 30_000 });
        await notice.getByText(`流程模块的版本（契约 ${farAhead}）与外壳（契约 ${CONTRACT}）不兼容`).waitFor();
        assert.ok(!urls.some((u) => u.startsWith(`${workflow.url}/__federation_expose_App`)), 'nothing of the refused remote\'s pages was loaded');

        // the menu still works, and the files remote with it
        await clickMainMenu(page, TEXT.menuFiles);
        await waitForPath(page, /^\/file\//);
        await page.locator('.ant-table, .ant-empty').or(page.getByText(TEXT.empty)).first().waitFor();
        await page.getByText('模块版本不兼容').waitFor({ state: 'detached' });

        // the refusal is in the shell's error log (kept in memory: no reload)
        await navigateInApp(page, '/error-log/list');
        await page.getByText(`流程模块的版本（契约 ${farAhead}）`).first().waitFor();
      }, { server });
    } finally {
      for (const p of started) await p.stop();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
