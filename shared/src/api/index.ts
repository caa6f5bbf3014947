// Typed calls of the 云文档 API. Paths are relative to the API prefix (`/api` by default).
import { http, type HttpConfig } from '../http/client';
import type {
  ClientBranding,
  CreateFileBody,
  EnvironmentConfig,
  FeaturePolicy,
  FolderItems,
  HomeInfo,
  Item,
  ItemsQuery,
  LoginBody,
  LoginResult,
  PasswordPolicy,
} from './types';

export const api = {
  login: (body: Omit<LoginBody, 'mode'> & { mode?: LoginBody['mode'] }, config?: HttpConfig) =>
    http.post<LoginResult>('/login', { mode: 'password', ...body }, { withToken: false, ...config }),
  quit: (config?: HttpConfig) =>
    http.post<unknown>('/login/quit', undefined, { errorMode: 'none', silentLogout: true, ...config }),
  getEnvironmentConfig: (config?: HttpConfig) => http.get<EnvironmentConfig>('/EnvironmentConfig', config),
  getFeaturePolicy: (config?: HttpConfig) => http.get<FeaturePolicy>('/User/GlobalPolicies/FeaturePolicy', config),
  getPasswordPolicy: (config?: HttpConfig) => http.get<PasswordPolicy>('/Login/PasswordPolicy', { withToken: false, ...config }),
  getBranding: (config?: HttpConfig) => http.get<ClientBranding>('/Client/Branding', { withToken: false, ...config }),
  getHome: (config?: HttpConfig) => http.get<HomeInfo>('/User/Home', config),
  getRootFolders: (space: 'Personal' | 'Public', config?: HttpConfig) =>
    http.get<Item[]>(`/User/Folders/${space}/RootFolders`, config),
  getItems: (parentId: string, query: ItemsQuery, config?: HttpConfig) =>
    http.get<FolderItems>(`/User/Folders/${encodeURIComponent(parentId)}/Items`, { ...config, params: { ...query, ...config?.params } }),
  createFile: (body: CreateFileBody, config?: HttpConfig) => http.post<Item>('/User/Files/CreateFile', body, config),
};

export type Api = typeof api;
