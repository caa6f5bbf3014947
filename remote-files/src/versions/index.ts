export { VersionsDrawer, VERSION_TEXTS, type VersionsDrawerProps } from './VersionsDrawer';
