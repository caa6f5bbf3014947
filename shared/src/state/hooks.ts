import { useAtomValue } from 'jotai';
import {
  envConfigAtom,
  featurePolicyAtom,
  homeAtom,
  rolesAtom,
  runtimeConfigAtom,
  simpleModeAtom,
  tokenAtom,
  userInfoAtom,
} from './atoms';

export const useToken = () => useAtomValue(tokenAtom);
export const useUserInfo = () => useAtomValue(userInfoAtom);
export const useRoles = () => useAtomValue(rolesAtom);
export const useFeaturePolicy = () => useAtomValue(featurePolicyAtom);
export const useEnvConfig = () => useAtomValue(envConfigAtom);
export const useHome = () => useAtomValue(homeAtom);
export const useRuntimeConfig = () => useAtomValue(runtimeConfigAtom);
export const useSimpleMode = () => useAtomValue(simpleModeAtom);
