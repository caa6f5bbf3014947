// Emits a gzip -9 copy (`name.gz`) beside each text asset of a web build, made once at build
// time; the server (@fastify/static's preCompressed) and scripts/serve-static.mjs send it to
// a browser that accepts gzip. Browsers ask for brotli only over HTTPS, where a proxy in
// front usually compresses anyway; gzip is what every client on plain HTTP takes.
const zlib = require('node:zlib');
const { rspack } = require('@rspack/core');

const TEXT = /\.(?:js|mjs|css|html|json|svg|txt|map)$/;
/** below this, the header and a round trip of decompression cost more than they save */
const MIN_BYTES = 1024;

class GzipPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('GzipPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // after the hashes are final and index.html is written
        { name: 'GzipPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        (assets) => {
          for (const name of Object.keys(assets)) {
            if (!TEXT.test(name)) continue;
            const source = compilation.getAsset(name).source.buffer();
            if (source.length < MIN_BYTES) continue;
            const gz = zlib.gzipSync(source, { level: 9 });
            if (gz.length >= source.length) continue;
            compilation.emitAsset(`${name}.gz`, new rspack.sources.RawSource(gz), { compressed: true });
          }
        },
      );
    });
  }
}

module.exports = { GzipPlugin };
