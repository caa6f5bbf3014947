// Build of the workflow remote of 云文档 (Module Federation name 'workflow').
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

module.exports = createWebConfig({
  dir: __dirname,
  name: 'workflow',
  title: '云文档 · 流程',
  exposes: {
    './App': './src/App.tsx',
    './meta': './src/meta.ts',
  },
});
