export {
  appStore,
  tokenAtom,
  userInfoAtom,
  rolesAtom,
  featurePolicyAtom,
  envConfigAtom,
  homeAtom,
  runtimeConfigAtom,
  brandingAtom,
  simpleModeAtom,
  readingFilesAtom,
  errorLogAtom,
  DEFAULT_ENV_CONFIG,
  loadSessionFromStorage,
  resetAppState,
} from './atoms';
export type { ErrorLogEntry } from './atoms';
export {
  useToken,
  useUserInfo,
  useRoles,
  useFeaturePolicy,
  useEnvConfig,
  useHome,
  useRuntimeConfig,
  useSimpleMode,
} from './hooks';
export {
  setSession,
  logout,
  clearSession,
  loadUserContext,
  applyTemporaryToken,
  startSessionSync,
  isLogoutInProgress,
  resetSessionState,
} from './session';
export { useLoad, type LoadState } from './useLoad';
