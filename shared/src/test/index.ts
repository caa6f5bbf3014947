
export { renderWithProviders, signIn, testUser, testHome, testFeaturePolicy } from './render';
export type { RenderWithProvidersOptions, TestSession } from './render';
export { ferryZones, ferryRow, ferryFile, ferryDetail, inboxItem, folderFile, HASH } from './ferry';
export { button, settled, panelOf, toasts, pickOption } from './queries';
export { useInlineStylesOnly } from './styles';
