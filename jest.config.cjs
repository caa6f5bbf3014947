// One Jest run, two projects: the web packages in jsdom and the API server in Node.
const swc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', tsx: true },
    transform: { react: { runtime: 'automatic' } },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
}];
const remotes = ['files', 'workflow', 'swapspace', 'ferry', 'share'];
module.exports = {
  projects: [
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/shared', '<rootDir>/shell', ...remotes.map((r) => `<rootDir>/remote-${r}`)],
      testMatch: ['**/src/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
      transform: { '^.+\\.[cm]?[jt]sx?$': swc },
      transformIgnorePatterns: ['/node_modules/(?!(jotai)/)'],
      moduleNameMapper: {
        '\\.(css|less)$': '<rootDir>/jest/style-stub.cjs',
        // @ant-design/icons' CommonJS build requires an ES-module file of @ant-design/colors;
        // its CommonJS twin holds the same code.
        '^@ant-design/colors/es/(.*)$': '@ant-design/colors/lib/$1',
        '\\.(svg|png|jpg|gif)$': '<rootDir>/jest/file-stub.cjs',
        ...Object.fromEntries(remotes.map((r) => [`^${r}/(.*)$`, `<rootDir>/remote-${r}/src/$1`])),
      },
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server'],
      testMatch: ['**/test/**/*.test.ts'],
      transform: { '^.+\\.[cm]?[jt]sx?$': swc },
      // typebox, kysely, content-disposition (under @fastify/static), cookie (under Fastify's
      // inject) and oauth4webapi (the OAuth client of the token tests) ship only as ES modules:
      // SWC turns them into CommonJS for Jest.
      transformIgnorePatterns: ['/node_modules/(?!(typebox|kysely|content-disposition|cookie|oauth4webapi)/)'],
    },
  ],
};
