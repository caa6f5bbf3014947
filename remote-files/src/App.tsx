// The files remote of 云文档: personal and enterprise files, the other /file pages, and
// the settings pages. The shell mounts it at /file/* (section "file") and /setting/*
// (section "setting"); the routes below are relative to that mount.
import { Navigate, Route, Routes } from 'react-router-dom';
import { NotFoundSection } from '@app/shared/ui';
import { FavoritePage } from './favorite/FavoritePage';
import { SpacePage } from './folder/SpacePage';
import { AdvancedSearchPage } from './search/AdvancedSearchPage';
import { TagPage } from './tag/TagPage';
import { RecyclePage } from './recycle/RecyclePage';
import { AboutPage, TagSettingPage } from './setting/SettingPages';
import meta from './meta';

export interface FilesAppProps {
  section?: 'file' | 'setting';
}

const titleOf = (key: string) => meta.menu.find((m) => m.key === key)?.title ?? '';

export default function App({ section = 'file' }: FilesAppProps) {
  if (section === 'setting') {
    return (
      <Routes>
        <Route index element={<Navigate to="tag" replace />} />
        <Route path="tag" element={<TagSettingPage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="*" element={<NotFoundSection />} />
      </Routes>
    );
  }
  return (
    <Routes>
      <Route index element={<Navigate to="personal" replace />} />
      <Route path="personal/*" element={<SpacePage key="personal" space="Personal" />} />
      <Route path="public/*" element={<SpacePage key="public" space="Public" />} />
      <Route path="recycle" element={<RecyclePage title={titleOf('recycle')} />} />
      <Route path="favorite" element={<FavoritePage title={titleOf('favorite')} />} />
      <Route path="tag" element={<TagPage title={titleOf('tag')} />} />
      <Route path="advancedSearch" element={<AdvancedSearchPage title={titleOf('advancedSearch')} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
