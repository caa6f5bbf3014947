// The 云文档 shell: the Module Federation host. Remotes are registered at run time from
// /runtime-config.json; the two runtime plugins retry and contain remote failures.
const fs = require('node:fs');
const path = require('node:path');
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

/** A stylesheet as one line for a <style> element: comments and line breaks out. */
function inlineCss(file) {
  return fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

module.exports = createWebConfig({
  dir: __dirname,
  name: 'shell',
  host: true,
  title: '云文档',
  // the start-up and the sign-in page, with react, react-dom, jotai and @app/shared, are fetched
  // while main.js is (index.ts, bootstrap.tsx)
  preload: ['bootstrap', 'sign-in'],
  // index.html shows the loading screen before any script runs, or to a signed-out visitor of /
  // or /login the sign-in form (its inline script), styled by these rules inline
  templateParameters: {
    loadingCss: ['loading.css', 'sign-in.css'].map((f) => inlineCss(path.join(__dirname, 'src/pages/public', f))).join(' '),
    earlySignInScript: fs.readFileSync(path.join(__dirname, 'src/pages/login/earlySignIn.inline.js'), 'utf8').trim(),
  },
  runtimePlugins: [
    path.join(__dirname, 'src/federation/retryPlugin.ts'),
    path.join(__dirname, 'src/federation/errorPlugin.ts'),
  ],
});
