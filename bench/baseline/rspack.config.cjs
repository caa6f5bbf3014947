// Builds the naive baseline shell of figure 1 into bench/out/baseline-login.
// Same toolchain as the product (Rspack, builtin:swc-loader, Module Federation host with
// the same singletons), production mode.
const path = require('node:path');
const { rspack } = require('@rspack/core');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/rspack');

const version = (name) => require(require.resolve(`${name}/package.json`, { paths: [__dirname] })).version;
const singleton = (name) => ({ singleton: true, requiredVersion: `^${version(name)}` });

module.exports = (outDir = path.resolve(__dirname, '..', 'out', 'baseline-login')) => ({
  context: __dirname,
  mode: 'production',
  entry: { main: './src/index.js' },
  output: {
    path: outDir,
    publicPath: '/',
    uniqueName: 'baseline_shell',
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    clean: true,
  },
  resolve: { extensions: ['.jsx', '.js', '.mjs', '.json'] },
  module: {
    rules: [
      {
        test: /\.[cm]?jsx?$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: { jsc: { parser: { syntax: 'ecmascript', jsx: true }, transform: { react: { runtime: 'automatic' } } } },
        type: 'javascript/auto',
      },
    ],
  },
  plugins: [
    new rspack.HtmlRspackPlugin({ template: path.join(__dirname, 'public', 'index.html'), inject: 'body', minify: true }),
    new ModuleFederationPlugin({
      name: 'baseline_shell',
      remotes: {},
      shared: {
        react: singleton('react'),
        'react/': singleton('react'),
        'react-dom': singleton('react-dom'),
        'react-dom/': singleton('react-dom'),
        'react-router-dom': singleton('react-router-dom'),
        antd: singleton('antd'),
      },
      manifest: true,
      dts: false,
      shareStrategy: 'loaded-first',
    }),
  ],
  optimization: { splitChunks: { chunks: 'async' } },
  performance: { hints: false },
  devtool: false,
  stats: 'errors-warnings',
});
