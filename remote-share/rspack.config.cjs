// Build of the share remote of 云文档 (Module Federation name 'share').
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

module.exports = createWebConfig({
  dir: __dirname,
  name: 'share',
  title: '云文档 · 分享',
  exposes: {
    './App': './src/App.tsx',
    './SharePage': './src/SharePage.tsx',
    './meta': './src/meta.ts',
  },
});
