// Build of the files remote of 云文档 (Module Federation name 'files').
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

module.exports = createWebConfig({
  dir: __dirname,
  name: 'files',
  title: '云文档 · 文件',
  exposes: {
    './App': './src/App.tsx',
    './meta': './src/meta.ts',
  },
});
