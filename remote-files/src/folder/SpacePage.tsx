import { Messages, useEnvConfig, useRoles } from '@app/shared';
import { PolicyWarning } from '@app/shared/ui';
import { FolderView, type Space } from './FolderView';

const DEFAULT_TITLES: Record<Space, string> = { Personal: '个人文件', Public: '企业文件' };

/** Personal or enterprise files, if the user's roles allow that space. */
export function SpacePage({ space }: { space: Space }) {
  const env = useEnvConfig();
  const roles = useRoles();
  const allowed = space === 'Personal' ? roles?.personalSpace : roles?.publicSpace;
  if (roles && allowed === false) {
    return <PolicyWarning message={space === 'Personal' ? Messages.noPersonalAccess : Messages.noEnterpriseAccess} />;
  }
  const configured = space === 'Personal' ? env?.personalFolderName : env?.publicFolderName;
  return <FolderView space={space} title={configured || DEFAULT_TITLES[space]} />;
}
