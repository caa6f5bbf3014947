// Build of the ferry remote of 云文档 (Module Federation name 'ferry').
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

module.exports = createWebConfig({
  dir: __dirname,
  name: 'ferry',
  title: '云文档 · 文件摆渡',
  exposes: {
    './App': './src/App.tsx',
    './meta': './src/meta.ts',
  },
});
