// Simple (ferry-only) mode: MODE=simple.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { missingBuilds, recordRequests, waitFor, signInThroughPage, startServer, waitForPath, withBrowser } from '../harness.mjs';

describe('simple mode', () => {
  test('after sign-in the home is /ferry/file and only the ferry manifest is requested', { timeout: 180_000 }, async (t) => {
    const notBuilt = missingBuilds('server/dist/server.js', 'shell/dist/index.html', 'remote-ferry/dist/mf-manifest.json');
    if (notBuilt) throw new Error(notBuilt);
    const server = await startServer({ mode: 'simple' });
    try {
      const cfg = await (await fetch(`${server.url}/runtime-config.json`)).json();
      assert.equal(cfg.mode, 'simple');
      assert.deepEqual(cfg.remotes.map((r) => r.name), ['ferry']);

      await withBrowser(t, async ({ page }) => {
        const urls = recordRequests(page);
        await signInThroughPage(page, server, server.adminUser, server.adminPassword);
        await waitForPath(page, '/ferry/file');
        // the shell loads the remote lazily once the route shows: wait for its manifest,
        // then for the page to settle, before looking at what else was requested
        const isManifest = (u) => new URL(u).pathname.endsWith('mf-manifest.json');
        await waitFor(() => urls.some(isManifest), 30_000).catch(() => {});
        await page.waitForLoadState('networkidle').catch(() => {});
        await page.waitForTimeout(1000);
        const manifests = urls.filter(isManifest);
        assert.ok(manifests.length >= 1, `the ferry manifest was requested; requested:\n${urls.join('\n')}`);
        const others = manifests.filter((u) => !/\/ferry\/|ferry/.test(new URL(u).pathname));
        assert.deepEqual(others, [], 'no manifest other than the ferry one');
      }, { server });
    } finally {
      await server.stop();
    }
  });
});
