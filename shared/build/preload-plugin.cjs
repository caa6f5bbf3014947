// Preloads what the shell's first screen needs: <link rel="preload"> tags in index.html for
// the files of some named async chunk groups and of the shared modules (react, react-dom,
// jotai, @app/shared …) that their chunks consume. Without them the browser learns of those
// files only once main.js has run (the Module Federation runtime, then bootstrap), and of the
// sign-in page's chunk only once bootstrap has run: two round trips after main.js, where with
// them every file is fetched while main.js is.
const { rspack } = require('@rspack/core');

// "consume shared module (default) react-dom/client@^19.3.1 (strict) (fallback: …)" and
// "provide shared module (default) react-dom/client@19.3.1 = …": share scope and key
const SHARE_KEY = /^(?:consume|provide) shared module \(([^)]*)\) (.+?)@/;

function shareKeyOf(module) {
  const m = SHARE_KEY.exec(module.identifier());
  return m ? `${m[1]} ${m[2]}` : null;
}

/**
 * The files of the named chunk groups and of the shared modules their chunks consume, in
 * load order (a group before what it consumes). A consumed module loads as the shell provides
 * it (its provide module's chunks: the shell is the first and, before sign-in, the only
 * provider), else from its fallback; what that loads consumes in turn.
 */
function filesToPreload(compilation, names) {
  const { chunkGraph } = compilation;
  const providers = new Map();
  for (const chunk of compilation.chunks) {
    for (const module of chunkGraph.getChunkModules(chunk)) {
      if (module.type === 'provide-module') providers.set(shareKeyOf(module), module);
    }
  }
  const files = [];
  const seenGroups = new Set();
  const seenChunks = new Set();
  const visit = (group) => {
    if (!group || seenGroups.has(group)) return;
    seenGroups.add(group);
    const next = [];
    for (const chunk of group.chunks) {
      if (seenChunks.has(chunk)) continue;
      seenChunks.add(chunk);
      files.push(...[...chunk.files].filter((f) => /\.(js|css)$/.test(f)));
      for (const module of chunkGraph.getChunkModules(chunk)) {
        if (module.type !== 'consume-shared-module') continue;
        const source = providers.get(shareKeyOf(module)) ?? module;
        for (const block of source.blocks) next.push(chunkGraph.getBlockChunkGroup(block));
      }
    }
    next.forEach(visit);
  };
  for (const name of names) {
    const group = compilation.namedChunkGroups.get(name);
    if (!group) throw new Error(`PreloadPlugin: no chunk group named "${name}" (a webpackChunkName is missing)`);
    visit(group);
  }
  return [...new Set(files)];
}

class PreloadPlugin {
  /** @param {{ chunkGroups: string[] }} options the webpackChunkName of each async import to preload */
  constructor(options) {
    this.names = options.chunkGroups;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadPlugin', (compilation) => {
      const hooks = rspack.HtmlRspackPlugin.getCompilationHooks(compilation);
      hooks.alterAssetTagGroups.tapPromise('PreloadPlugin', async (data) => {
        const publicPath = data.publicPath ?? '';
        const links = filesToPreload(compilation, this.names).map((file) => ({
          tagName: 'link',
          voidTag: true,
          attributes: file.endsWith('.css')
            ? { rel: 'preload', as: 'style', href: publicPath + file }
            : { rel: 'preload', as: 'script', href: publicPath + file },
        }));
        // main.js first (it is what runs), then what it will ask for
        const scripts = data.bodyTags.filter((t) => t.tagName === 'script');
        data.bodyTags = data.bodyTags.filter((t) => t.tagName !== 'script');
        data.headTags = [...data.headTags, ...scripts, ...links];
        return data;
      });
    });
  }
}

module.exports = { PreloadPlugin };
