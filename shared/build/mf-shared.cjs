// The Module Federation `shared` map that every web build uses, so that the shell and each
// remote agree on one copy of React, the router, jotai, antd and @app/shared (one session).
// Keys ending in '/' cover deep imports (react/jsx-runtime, react-dom/client, jotai/utils,
// antd/locale/zh_CN, dayjs/locale/zh-cn, @app/shared/ui); without them those load twice.
const path = require('node:path');

const versionOf = (name) =>
  require(require.resolve(`${name}/package.json`, { paths: [path.join(__dirname, '..')] })).version;

const singleton = (name) => ({ singleton: true, requiredVersion: `^${versionOf(name)}` });

function createSharedConfig() {
  const shared = {};
  for (const name of [
    'react', 'react-dom', 'react-router', 'react-router-dom', 'jotai', 'antd',
    '@ant-design/cssinjs', '@ant-design/icons', 'dayjs', 'axios',
  ]) {
    shared[name] = singleton(name);
  }
  for (const name of ['react', 'react-dom', 'jotai', 'antd', 'dayjs']) {
    shared[`${name}/`] = singleton(name);
  }
  const own = { singleton: true, version: versionOf('@app/shared'), requiredVersion: `^${versionOf('@app/shared')}` };
  shared['@app/shared'] = own;
  shared['@app/shared/'] = own;
  return shared;
}

module.exports = { createSharedConfig };
