
export { renderWithProviders, signIn, testUser, testHome, testFeaturePolicy } from './render';
export type { RenderWithProvidersOptions, TestSession } from './render';
