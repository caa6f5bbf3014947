export { http, request, getWithoutSession, setHttpAdapter, cancelAllPending, resetHttpState } from './client';
export type { HttpConfig, RequestOptions, ErrorMode } from './client';
export { ApiError, isApiError } from './errors';
export { preparePayload } from './transform';
