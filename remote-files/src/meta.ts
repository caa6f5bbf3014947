// The files remote's menu: the shell builds the 云文档 sub-menu from it. The titles of the
// two spaces are replaced at run time by the configured folder names (EnvironmentConfig).
import { remoteMeta, REMOTE_CONTRACT_VERSION } from '@app/shared';

// The contract version this remote was built against, inlined by the build (shared/src/contract.ts
// says why not REMOTE_CONTRACT_VERSION at run time); Jest, which has no build, runs one checkout.
export default remoteMeta(
  'files',
  typeof __REMOTE_CONTRACT_VERSION__ === 'number' ? __REMOTE_CONTRACT_VERSION__ : REMOTE_CONTRACT_VERSION,
);
