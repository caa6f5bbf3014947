// The icons that remote menus may name (a fixed set keeps the layout chunk small).
import type { ComponentType } from 'react';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import AuditOutlined from '@ant-design/icons/AuditOutlined';
import BankOutlined from '@ant-design/icons/BankOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import FileSearchOutlined from '@ant-design/icons/FileSearchOutlined';
import FolderOutlined from '@ant-design/icons/FolderOutlined';
import InfoCircleOutlined from '@ant-design/icons/InfoCircleOutlined';
import ProfileOutlined from '@ant-design/icons/ProfileOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import ShareAltOutlined from '@ant-design/icons/ShareAltOutlined';
import StarOutlined from '@ant-design/icons/StarOutlined';
import SwapOutlined from '@ant-design/icons/SwapOutlined';
import TagsOutlined from '@ant-design/icons/TagsOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import UnorderedListOutlined from '@ant-design/icons/UnorderedListOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import BugOutlined from '@ant-design/icons/BugOutlined';
import CloudOutlined from '@ant-design/icons/CloudOutlined';
import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';

const ICONS: Record<string, ComponentType> = {
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  DeleteOutlined,
  FileSearchOutlined,
  FolderOutlined,
  InfoCircleOutlined,
  ProfileOutlined,
  SettingOutlined,
  ShareAltOutlined,
  StarOutlined,
  SwapOutlined,
  TagsOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  BugOutlined,
  CloudOutlined,
  ApartmentOutlined,
};

export function MenuIcon({ name }: { name?: string }) {
  const Icon = (name && ICONS[name]) || AppstoreOutlined;
  return <Icon />;
}
