// The files page as the action tests render it: a writable personal root holding a folder and
// a file, with the list and the folder tree's calls mocked.
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { api } from '@app/shared';
import { renderWithProviders } from '@app/shared/test';
import App from '../App';
import { docsFolder, page, personalRoot, report, WRITE } from './fixtures';

export const root = { ...personalRoot, permissions: WRITE };
export const folder = { ...docsFolder, permissions: WRITE };
export const file = { ...report, permissions: WRITE };

export function renderFiles() {
  return renderWithProviders(
    <Routes>
      <Route path="/file/*" element={<App section="file" />} />
    </Routes>,
    { route: '/file/personal', session: true },
  );
}

export const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
export const ok = (scope: HTMLElement = document.body) => within(scope).getByRole('button', { name: /确\s*定/ });

/** Installs the mocks before each test and restores them after; `getItems` is the list call's spy. */
export function mockFilesPage() {
  const mocks = { getItems: undefined as unknown as jest.SpyInstance };
  beforeEach(() => {
    jest.spyOn(api, 'getRootFolders').mockResolvedValue([root]);
    mocks.getItems = jest.spyOn(api, 'getItems').mockResolvedValue(page(root, [folder, file]));
    // the folder tree beside the list (its own tests are in tree/FolderTree.test.tsx)
    jest.spyOn(api, 'getFolderTree').mockResolvedValue([]);
    jest.spyOn(api, 'getTreeNodes').mockResolvedValue([]);
    // the personal space's usage under the tree (its own tests are in folder/FolderView.test.tsx)
    jest.spyOn(api, 'getPersonalUsage').mockResolvedValue({ used: 0, recycleBin: 0, uploading: 0 });
    jest.spyOn(api, 'getPersonalPolicy').mockResolvedValue({ quota: 0, unlimited: true });
  });
  afterEach(() => jest.restoreAllMocks());
  return mocks;
}
