// Remote loading: a remote that is down is contained; a remote served from another origin
// is loaded from there.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ROOT, TEXT, clickMainMenu, closedPort, createFolder, login, missingBuilds, personalRoot,
  recordRequests, signInThroughPage, startServer, startStatic, waitForPath, withBrowser,
} from '../harness.mjs';

const T = { timeout: 180_000 };

describe('remote loading', () => {
  test('a remote that is down shows 模块加载失败 with 重试 while the menu still works', T, async (t) => {
    const notBuilt = missingBuilds();
    if (notBuilt) throw new Error(notBuilt);
    const dead = await closedPort();
    const server = await startServer({ remotes: { workflow: `http://127.0.0.1:${dead}/mf-manifest.json` } });
    try {
      await withBrowser(t, async ({ page }) => {
        await signInThroughPage(page, server, server.adminUser, server.adminPassword);
        await waitForPath(page, '/file/personal');
        await page.getByText(TEXT.personalTitle).first().waitFor();

        await page.goto(`${server.url}/workflow/list`);
        await page.getByText(TEXT.remoteFailed).first().waitFor({ timeout: 30_000 });
        // antd puts a space between two CJK characters of a button label: 重 试
        await page.getByRole('button', { name: /^重\s*试$/ }).first().waitFor();
        // the shell's menu still works: back to the files
        await clickMainMenu(page, TEXT.menuFiles);
        await waitForPath(page, /^\/file\//);
        await page.getByText(TEXT.personalTitle).first().waitFor();
        await page.locator('.ant-table, .ant-empty').or(page.getByText(TEXT.empty)).first().waitFor();
      }, { server });
    } finally {
      await server.stop();
    }
  });

  test('a remote served from another port is loaded from there', T, async (t) => {
    const notBuilt = missingBuilds();
    if (notBuilt) throw new Error(notBuilt);
    const remote = await startStatic(`${ROOT}/remote-files/dist`);
    const manifestUrl = `${remote.url}/mf-manifest.json`;
    const server = await startServer({ remotes: { files: manifestUrl } });
    try {
      const cfg = await (await fetch(`${server.url}/runtime-config.json`)).json();
      const files = cfg.remotes?.find((r) => r.name === 'files');
      assert.equal(files?.entry, manifestUrl, 'runtime-config.json names the remote URL from REMOTE_FILES_URL');

      const admin = await login(server);
      const root = await personalRoot(server, admin.token);
      const folderName = `远程加载-${Date.now().toString(36)}`;
      await createFolder(server, admin.token, root.id, folderName);

      await withBrowser(t, async ({ page }) => {
        const urls = recordRequests(page);
        await signInThroughPage(page, server, server.adminUser, server.adminPassword);
        await waitForPath(page, '/file/personal');
        await page.getByText(TEXT.personalTitle).first().waitFor();
        await page.getByText(folderName, { exact: true }).first().waitFor();

        assert.ok(urls.some((u) => u.startsWith(manifestUrl)), `the manifest came from ${remote.url}; requested:\n${urls.join('\n')}`);
        assert.ok(urls.some((u) => u.startsWith(`${remote.url}/remoteEntry.js`)), `remoteEntry.js came from ${remote.url}`);
        assert.ok(!urls.some((u) => u.startsWith(`${server.url}/remotes/files/`)), 'nothing of the files remote came from the server');
      }, { server });
    } finally {
      await server.stop();
      await remote.stop();
    }
  });
});

describe('shell deployed alone', () => {
  test('the shell served by serve-static --proxy signs in and loads the files remote', T, async (t) => {
    const notBuilt = missingBuilds();
    if (notBuilt) throw new Error(notBuilt);
    const server = await startServer();
    const shell = await startStatic(`${ROOT}/shell/dist`, { proxy: server.url });
    try {
      await withBrowser(t, async ({ page }) => {
        const urls = recordRequests(page);
        await signInThroughPage(page, shell, server.adminUser, server.adminPassword);
        await waitForPath(page, '/file/personal');
        await page.getByText(TEXT.personalTitle).first().waitFor();
        await page.locator('.ant-table, .ant-empty').or(page.getByText(TEXT.empty)).first().waitFor();
        assert.ok(!urls.some((u) => u.startsWith(server.url)), 'the browser only talked to the static server');
      }, { server });
    } finally {
      await shell.stop();
      await server.stop();
    }
  });
});
