// The share remote's entries in the 云文档 side menu.
import { remoteMeta, REMOTE_CONTRACT_VERSION } from '@app/shared';

// The contract version this remote was built against, inlined by the build (shared/src/contract.ts
// says why not REMOTE_CONTRACT_VERSION at run time); Jest, which has no build, runs one checkout.
export default remoteMeta(
  'share',
  typeof __REMOTE_CONTRACT_VERSION__ === 'number' ? __REMOTE_CONTRACT_VERSION__ : REMOTE_CONTRACT_VERSION,
);
