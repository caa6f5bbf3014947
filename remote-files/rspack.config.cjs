// Build of the files remote of 云文档 (Module Federation name 'files').
const path = require('node:path');
const { createWebConfig } = require('../shared/build/rspack-config.cjs');

// pdf.js's data files, served from this build (intranets have no CDN): character maps (Chinese
// CID fonts render blank without them), standard fonts, wasm image decoders and ICC profiles.
// The preview builds their URLs from the remote's public path (src/preview/pdfjs.ts).
const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json', { paths: [__dirname] }));
const pdfjsData = ['cmaps', 'standard_fonts', 'wasm', 'iccs'].map((dir) => ({
  from: path.join(pdfjsDir, dir),
  to: `pdfjs/${dir}`,
}));

module.exports = createWebConfig({
  dir: __dirname,
  name: 'files',
  title: '云文档 · 文件',
  exposes: {
    './App': './src/App.tsx',
    './meta': './src/meta.ts',
    './Preview': './src/preview/PreviewScreen.tsx',
  },
  copy: pdfjsData,
});
