// The shell ↔ remote contract of 云文档, and its version.
//
// What the contract covers (everything a shell and a remote deployed separately rely on):
// - Exposed modules. Every remote exposes './App' (default export: a component rendering its
//   relative <Routes>) and './meta' (default export: a RemoteMeta — name, title, menu and,
//   from version 2 on, `contract`). 'files' also exposes './Preview' and 'share' './SharePage'.
// - What the shell passes. files/App gets `section: 'file' | 'setting'`; files/Preview gets
//   `previewData: string, mobile: boolean`; the other modules get no props. Every module
//   renders inside the shell's router, jotai Provider (appStore) and antd ConfigProvider.
// - The shared singletons of shared/build/mf-shared.cjs (react, react-dom, the router, jotai,
//   antd, @ant-design/*, dayjs, axios and @app/shared itself: one session atom, one store).
//
// History:
//   1  the contract before it had a number: './meta' carries no `contract` field.
//   2  './meta' carries `contract`, the version the remote was built against.
//
// Rules for a change: bump REMOTE_CONTRACT_VERSION. A shell supports remotes one version
// behind and one ahead (REMOTE_CONTRACT_MIN…REMOTE_CONTRACT_MAX), so
// - version N+1 may only add to N (a new optional prop, a new exposed module, a new meta
//   field): a shell of version N must be able to run it unchanged;
// - the shell keeps serving a remote of N-1: where N changed something the old remote relies
//   on, the shell adapts (shell/src/federation/contract.ts, adaptMeta);
// - whatever is outside that range the shell refuses, with a notice in the remote's place.
//
// A remote must not read REMOTE_CONTRACT_VERSION at run time to report its own version:
// @app/shared is a shared singleton, so that would be the shell's number. The build inlines
// the number as __REMOTE_CONTRACT_VERSION__ (shared/build/rspack-config.cjs reads it from this
// file) and a remote's './meta' passes it to remoteMeta().

/** The version of the shell ↔ remote contract this checkout implements. */
export const REMOTE_CONTRACT_VERSION = 2;

/** The oldest remote contract the shell still runs. */
export const REMOTE_CONTRACT_MIN = REMOTE_CONTRACT_VERSION - 1;

/** The newest remote contract the shell runs. */
export const REMOTE_CONTRACT_MAX = REMOTE_CONTRACT_VERSION + 1;

/** A './meta' without a `contract` field was built before the contract had a number. */
export const UNVERSIONED_REMOTE_CONTRACT = 1;

declare global {
  /** Inlined by the web build (DefinePlugin); absent in Jest, which runs one checkout. */
  // eslint-disable-next-line no-var
  var __REMOTE_CONTRACT_VERSION__: number | undefined;
}
