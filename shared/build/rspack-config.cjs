// Builds the Rspack configuration of one web package: the shell (host) or a remote.
// Every package's rspack.config.cjs is one call to createWebConfig.
const path = require('node:path');
const { rspack } = require('@rspack/core');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/rspack');
const { createSharedConfig } = require('./mf-shared.cjs');
const { readContractVersion } = require('./contract.cjs');
const { PreloadPlugin } = require('./preload-plugin.cjs');
const { hostSplitChunks } = require('./framework-chunk.cjs');
const { GzipPlugin } = require('./gzip-plugin.cjs');

const buildVersion = process.env.APP_BUILD_VERSION || `1.1.0+${Date.now().toString(36)}`;

// The shell publishes its build version at /json/config.json; the version-update check
// (spec section 4) compares it with the one the browser stored.
class EmitVersionFile {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('EmitVersionFile', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'EmitVersionFile', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const body = JSON.stringify({ VITE_GLOB_APP_VERSION: buildVersion });
        compilation.emitAsset('json/config.json', new rspack.sources.RawSource(body));
      });
    });
  }
}

/**
 * @param {object} o
 * @param {string} o.dir        the package folder (__dirname of its rspack.config.cjs)
 * @param {string} o.name       federation name: 'shell', 'files', 'workflow', 'swapspace', 'ferry', 'share'
 * @param {Record<string,string>} [o.exposes]  what a remote exposes ('./App', './meta')
 * @param {boolean} [o.host]    true for the shell
 * @param {string} o.title      the HTML page title
 * @param {Record<string,string>} [o.templateParameters] more values for public/index.html
 * @param {string[]} [o.runtimePlugins] Module Federation runtime plugins (paths)
 * @param {object[]} [o.copy]   extra CopyRspackPlugin patterns
 * @param {string[]} [o.preload] webpackChunkNames of async imports that index.html preloads
 *                              (with the shared modules they consume)
 */
function createWebConfig(o) {
  const host = Boolean(o.host);
  return {
    context: o.dir,
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
    entry: { main: './src/index.ts' },
    output: {
      path: path.join(o.dir, 'dist'),
      publicPath: host ? '/' : 'auto',
      uniqueName: host ? 'shell' : `remote_${o.name}`,
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      cssFilename: '[name].[contenthash:8].css',
      cssChunkFilename: '[name].[contenthash:8].css',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.jsx', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic' } },
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.module\.css$/, type: 'css/module' },
        { test: /\.css$/, exclude: /\.module\.css$/, type: 'css' },
        { test: /\.(svg|png|jpe?g|gif|ico)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new rspack.DefinePlugin({
        __APP_VERSION__: JSON.stringify(buildVersion),
        // the contract this bundle implements: a remote reports it in './meta' (shared/src/contract.ts)
        __REMOTE_CONTRACT_VERSION__: JSON.stringify(readContractVersion()),
      }),
      new rspack.HtmlRspackPlugin({
        template: path.join(o.dir, 'public', 'index.html'),
        templateParameters: { title: o.title, ...o.templateParameters },
        inject: 'body',
        minify: true,
      }),
      new rspack.CopyRspackPlugin({
        patterns: [
          { from: 'public', globOptions: { ignore: ['**/index.html'] }, noErrorOnMissing: true },
          ...(o.copy || []),
        ],
      }),
      new ModuleFederationPlugin({
        name: o.name,
        ...(host ? { remotes: {} } : { filename: 'remoteEntry.js', exposes: o.exposes || {} }),
        shared: createSharedConfig(),
        manifest: true,
        dts: false,
        shareStrategy: 'loaded-first',
        runtimePlugins: o.runtimePlugins || [],
        // the runtime for browsers only: its Node.js code left out (2.2 KB gzip off the sign-in page)
        experiments: { optimization: { target: 'web' } },
      }),
      ...(host ? [new EmitVersionFile()] : []),
      ...(o.preload ? [new PreloadPlugin({ chunkGroups: o.preload })] : []),
      new GzipPlugin(),
    ],
    optimization: { splitChunks: host ? hostSplitChunks() : undefined },
    performance: { hints: false },
    devtool: false,
    stats: 'errors-warnings',
  };
}

module.exports = { createWebConfig, buildVersion };
