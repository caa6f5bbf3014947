// Build of the swapspace remote of 云文档 (Module Federation name 'swapspace').
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

module.exports = createWebConfig({
  dir: __dirname,
  name: 'swapspace',
  title: '云文档 · 交换空间',
  exposes: {
    './App': './src/App.tsx',
    './meta': './src/meta.ts',
  },
});
