// The 云文档 shell: the Module Federation host. Remotes are registered at run time from
// /runtime-config.json; the two runtime plugins retry and contain remote failures.
const path = require('node:path');
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

module.exports = createWebConfig({
  dir: __dirname,
  name: 'shell',
  host: true,
  title: '云文档',
  runtimePlugins: [
    path.join(__dirname, 'src/federation/retryPlugin.ts'),
    path.join(__dirname, 'src/federation/errorPlugin.ts'),
  ],
});
