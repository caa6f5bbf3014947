export { PermissionsDialog, PERMISSION_TEXTS, type PermissionsDialogProps, type PolicyRow } from './PermissionsDialog';
export * from './levels';
