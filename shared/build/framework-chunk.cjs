// The shell's split of the packages its first screen runs on: React, ReactDOM with its
// scheduler, jotai's core and dayjs go into one async chunk, "framework", instead of one
// chunk per shared module. The sign-in page then runs 5 scripts instead of 10 (bench/README.md,
// figure 1). Their extras (jotai's utils, dayjs's plugins and locales) stay out: nothing
// before sign-in needs them.
const FRAMEWORK = [
  /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
  /[\\/]node_modules[\\/]jotai[\\/]dist[\\/](index|vanilla|react)\.js$/,
  /[\\/]node_modules[\\/]jotai[\\/]dist[\\/](vanilla|react)[\\/](?!utils)/,
  /[\\/]node_modules[\\/]dayjs[\\/]dayjs\.min\.js$/,
];

/** Whether a module (by its resource path) belongs in the framework chunk. */
function isFrameworkModule(resource) {
  return typeof resource === 'string' && FRAMEWORK.some((re) => re.test(resource));
}

/** The splitChunks options of the shell (the host): async chunks, with the framework cache group. */
function hostSplitChunks() {
  return {
    chunks: 'async',
    cacheGroups: {
      framework: {
        name: 'framework',
        chunks: 'async',
        test: (module) => isFrameworkModule(module.nameForCondition?.() ?? module.resource),
        // one chunk whatever the size and request limits say
        enforce: true,
        priority: 50,
      },
    },
  };
}

module.exports = { hostSplitChunks };
