// The signed-in layout of 云文档: top bar (product name, main menu, user menu), side menu
// of the current section, tabs, and the page.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAtom } from 'jotai';
import { useLocation, useNavigate } from 'react-router-dom';
import { Avatar, Badge, Button, Dropdown, Layout, Menu } from 'antd';
import ControlOutlined from '@ant-design/icons/ControlOutlined';
import DownOutlined from '@ant-design/icons/DownOutlined';
import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import UnorderedListOutlined from '@ant-design/icons/UnorderedListOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import {
  logout,
  Messages,
  useEnvConfig,
  useFeaturePolicy,
  useHome,
  useRoles,
  useSimpleMode,
  useUserInfo,
  type RemoteMenuItem,
  type RemoteName,
} from '@app/shared';
import { isRemoteRegistered, loadRemoteMeta } from '../federation/remotes';
import { useHomePath } from '../routing/helpers';
import { useBranding, useProductName } from '../branding/branding';
import { MenuIcon } from './icons';
import {
  mainMenuItems,
  matchMenuItem,
  remoteOfPath,
  SECTIONS,
  sectionOfPath,
  SHELL_TITLES,
  sideMenuItems,
  type SectionKey,
} from './menuModel';
import { TabsBar, type TabAction } from './tabs/TabsBar';
import { useWorkflowTodo } from './useWorkflowTodo';
import { DiskWarning } from './DiskWarning';
import { NoticeBell } from './NoticeBell';
import { closeAll, closeLeft, closeOthers, closeRight, closeTab, moveTab, nextActiveTab, openTab, type TabItem } from './tabs/tabsModel';
import { tabsAtom } from './tabs/tabsState';

const { Header, Sider, Content } = Layout;

const loadedMetas: Partial<Record<RemoteName, RemoteMenuItem[]>> = {};

/** The `./meta` menus loaded so far; loads the one of the remote that renders `pathname`. */
function useRemoteMetas(pathname: string) {
  const [metas, setMetas] = useState<Partial<Record<RemoteName, RemoteMenuItem[]>>>(() => ({ ...loadedMetas }));
  const remote = remoteOfPath(pathname);
  useEffect(() => {
    if (!remote || loadedMetas[remote] || !isRemoteRegistered(remote)) return;
    let live = true;
    loadRemoteMeta(remote)
      .then((meta) => {
        loadedMetas[remote] = meta.menu;
        if (live) setMetas({ ...loadedMetas });
      })
      .catch(() => undefined); // the shell's own copy of the menu stays
    return () => {
      live = false;
    };
  }, [remote]);
  return metas;
}

export function resetLoadedMetas(): void {
  for (const k of Object.keys(loadedMetas)) delete loadedMetas[k as RemoteName];
}

export function MainLayout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const policy = useFeaturePolicy();
  const home = useHome();
  const roles = useRoles();
  const env = useEnvConfig();
  const user = useUserInfo();
  const simple = useSimpleMode();
  const homePath = useHomePath();
  const metas = useRemoteMetas(location.pathname);
  const [collapsed, setCollapsed] = useState(false);
  const [tabs, setTabs] = useAtom(tabsAtom);

  const mainItems = useMemo(() => mainMenuItems(policy, home, simple), [policy, home, simple]);
  const workflowTodo = useWorkflowTodo(mainItems.some((m) => m.key === 'workflow'), location.pathname);
  const section = sectionOfPath(location.pathname, simple);
  const ctx = useMemo(() => ({ policy, roles, env, metas }), [policy, roles, env, metas]);
  const sideItems = useMemo(() => (section ? sideMenuItems(section, ctx) : []), [section, ctx]);
  const allItems = useMemo(() => mainItems.flatMap((m) => sideMenuItems(m.key, ctx)), [mainItems, ctx]);

  const describe = (path: string): { key: string; title: string } => {
    const item = matchMenuItem(path, allItems);
    if (item) return { key: item.path, title: item.title };
    const parts = path.split('/').filter(Boolean);
    // a path no menu entry or shell page claims shows the not-found page: its tab says so
    return { key: path, title: SHELL_TITLES[path] ?? (parts.length ? SHELL_TITLES['/404'] : '首页') };
  };

  // a section's bare path (/file, /swapSpace…) only redirects to one of its pages: no tab
  const isSectionRoot = (path: string) =>
    !matchMenuItem(path, allItems) && allItems.some((i) => i.path.startsWith(`${path.replace(/\/$/, '')}/`));

  const current = describe(location.pathname);
  const homeTab = homePath && homePath !== '/404' ? describe(homePath) : null;

  // the home tab is fixed; every page shown opens (or updates) its tab
  useEffect(() => {
    setTabs((list) => {
      let next = list;
      if (homeTab && homePath) next = openTab(next, { key: homeTab.key, path: next.find((t) => t.key === homeTab.key)?.path ?? homePath, title: homeTab.title, affix: true });
      if (location.pathname !== '/' && !isSectionRoot(location.pathname)) next = openTab(next, { key: current.key, path: location.pathname + location.search, title: current.title });
      return next;
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.pathname, location.search, current.key, current.title, homeTab?.key, homeTab?.title]);

  const onTabAction = (action: TabAction, key: string) => {
    if (action === 'refresh') {
      navigate(`/redirect${location.pathname}${location.search}`, { replace: true });
      return;
    }
    const before = tabs;
    const after =
      action === 'close'
        ? closeTab(before, key)
        : action === 'closeLeft'
          ? closeLeft(before, key)
          : action === 'closeRight'
            ? closeRight(before, key)
            : action === 'closeOthers'
              ? closeOthers(before, key)
              : closeAll(before);
    setTabs(after);
    // a context action on another tab makes that tab the current one
    const focus = action === 'close' ? current.key : action === 'closeAll' ? current.key : key;
    const target = nextActiveTab(before, after, focus);
    if (target && target.key !== current.key) navigate(target.path);
    else if (!target && homePath) navigate(homePath);
  };

  const appTitle = useProductName();
  const branding = useBranding();
  const sectionKey: SectionKey | null = section;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 24,
          padding: '0 20px',
          height: 56,
          lineHeight: '56px',
          background: '#fff',
          borderBottom: '1px solid #eef0f3',
          position: 'sticky',
          top: 0,
          zIndex: 10,
        }}
      >
        <a
          href={homePath ?? '/'}
          onClick={(e) => {
            e.preventDefault();
            if (homePath) navigate(homePath);
          }}
          style={{ display: 'flex', alignItems: 'center', gap: 10, color: '#1f2329', textDecoration: 'none', flex: 'none' }}
        >
          {branding?.logo_Light ? (
            <img src={branding.logo_Light} alt="" style={{ height: 30, maxWidth: 160, objectFit: 'contain' }} />
          ) : (
            <span
              aria-hidden="true"
              style={{
                width: 30,
                height: 30,
                borderRadius: 8,
                background: 'linear-gradient(135deg,#1f6feb,#4c8dff)',
                color: '#fff',
                display: 'inline-flex',
                alignItems: 'center',
                justifyContent: 'center',
                fontWeight: 600,
              }}
            >
              {appTitle.slice(0, 1)}
            </span>
          )}
          <span style={{ fontSize: 18, fontWeight: 600 }} data-testid="product-name">
            {appTitle}
          </span>
        </a>
        <Menu
          mode="horizontal"
          aria-label="主菜单"
          selectedKeys={sectionKey ? [sectionKey] : []}
          items={mainItems.map((m) => ({
            key: m.key,
            label:
              m.key === 'workflow' && workflowTodo > 0 ? (
                <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                  <span>{m.title}</span>
                  <Badge count={workflowTodo} size="small" overflowCount={99} title={`待我审批 ${workflowTodo} 条`} />
                </span>
              ) : (
                m.title
              ),
          }))}
          onClick={({ key }) => {
            const item = mainItems.find((m) => m.key === key);
            if (item) navigate(item.path);
          }}
          style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
        />
        <NoticeBell onOpen={(link) => navigate(link)} />
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'account', icon: <SettingOutlined />, label: '个人设置' },
              ...(user?.isAdmin || user?.isDeptAdmin || user?.isAuditAdmin ? [{ key: 'admin', icon: <ControlOutlined />, label: '系统管理' }] : []),
              { key: 'errorLog', icon: <UnorderedListOutlined />, label: '错误日志' },
              { type: 'divider' },
              { key: 'logout', icon: <LogoutOutlined />, label: Messages.logout },
            ],
            onClick: ({ key }) => {
              if (key === 'logout') void logout();
              if (key === 'errorLog') navigate('/error-log/list');
              if (key === 'account') navigate('/account');
              if (key === 'admin') navigate('/admin');
            },
          }}
        >
          <Button type="text" style={{ display: 'flex', alignItems: 'center', gap: 8, height: 40 }} aria-label="用户菜单">
            <Avatar size={28} src={user?.avatar || undefined} icon={<UserOutlined />} />
            <span>{user?.nickName || user?.userName || '用户'}</span>
            <DownOutlined style={{ fontSize: 10 }} />
          </Button>
        </Dropdown>
      </Header>
      <Layout>
        {sideItems.length > 0 ? (
          <Sider
            width={208}
            collapsedWidth={56}
            collapsible
            collapsed={collapsed}
            trigger={null}
            theme="light"
            style={{ borderRight: '1px solid #eef0f3' }}
          >
            <Menu
              mode="inline"
              aria-label={section ? `${SECTIONS[section].title}菜单` : '侧边菜单'}
              selectedKeys={current.key ? [current.key] : []}
              items={sideItems.map((item) => ({ key: item.path, icon: <MenuIcon name={item.icon} />, label: item.title }))}
              onClick={({ key }) => navigate(key)}
              style={{ borderInlineEnd: 'none', paddingTop: 8 }}
            />
            <div style={{ padding: '8px 12px' }}>
              <Button
                type="text"
                size="small"
                aria-label={collapsed ? '展开菜单' : '收起菜单'}
                icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                onClick={() => setCollapsed((c) => !c)}
              />
            </div>
          </Sider>
        ) : null}
        <Layout style={{ background: '#f5f6f8' }}>
          <TabsBar
            tabs={tabs}
            activeKey={current.key}
            onSelect={(tab: TabItem) => navigate(tab.path)}
            onAction={onTabAction}
            onMove={(from, to) => setTabs((list) => moveTab(list, from, to))}
          />
          <DiskWarning isAdmin={!!user?.isAdmin} />
          <Content style={{ margin: 16, padding: 20, background: '#fff', borderRadius: 8, minHeight: 360 }}>{children}</Content>
        </Layout>
      </Layout>
    </Layout>
  );
}
