// 品牌: the system name and the pictures of the login page, the menu bar and the browser tab.
// Changes show at once in this browser (the branding store) and for everyone on their next load.
import { useState } from 'react';
import { App as AntApp, Button, Card, Empty, Input, Space, Typography, Upload } from 'antd';
import { api, appStore, envConfigAtom, notify, useEnvConfig, type BrandingImageKind, type ClientBranding, type EnvironmentConfig } from '@app/shared';
import { applyBranding, useBranding } from '../branding/branding';

const IMAGES: { kind: BrandingImageKind; field: Exclude<keyof ClientBranding, 'systemName_Client'>; title: string; hint: string; dark?: boolean }[] = [
  { kind: 'logoLight', field: 'logo_Light', title: '浅色背景 Logo', hint: '登录页卡片与顶部菜单栏；缩放到 480×96 以内' },
  { kind: 'favicon', field: 'favroiteIcon', title: '网站图标', hint: '浏览器标签页上的图标；裁成 64×64' },
  { kind: 'loginBackground', field: 'login_Background', title: '登录页背景', hint: '铺满登录页；缩放到 2560×1600 以内' },
  { kind: 'logoDarkLarge', field: 'logo_Dark_Large', title: '深色背景大 Logo', hint: '登录页左上角，压在背景图上；缩放到 960×240 以内', dark: true },
  { kind: 'logoDark', field: 'logo_Dark', title: '深色背景 Logo', hint: '供深色界面的客户端使用；缩放到 480×96 以内', dark: true },
];

/** The names the roots of the two spaces show (menus, breadcrumbs, downloads). */
function SpaceNamesCard() {
  const current = useEnvConfig();
  const [names, setNames] = useState<EnvironmentConfig | null>(null);
  const [saving, setSaving] = useState(false);
  const shown = names ?? current;
  const save = async () => {
    setSaving(true);
    try {
      appStore.set(envConfigAtom, await api.setEnvironmentConfig(shown));
      setNames(null);
      notify.success('空间名称已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card size="small" title="空间名称">
      <Space wrap align="center">
        <span>个人空间</span>
        <Input aria-label="个人空间名称" style={{ width: 180 }} maxLength={20} value={shown.personalFolderName} onChange={(e) => setNames({ ...shown, personalFolderName: e.target.value })} />
        <span>企业空间</span>
        <Input aria-label="企业空间名称" style={{ width: 180 }} maxLength={20} value={shown.publicFolderName} onChange={(e) => setNames({ ...shown, publicFolderName: e.target.value })} />
        <Button type="primary" loading={saving} disabled={names === null} onClick={() => void save()}>
          保存名称
        </Button>
      </Space>
    </Card>
  );
}

export function BrandingTab() {
  const { modal } = AntApp.useApp();
  const branding = useBranding();
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  if (!branding) return <Empty description="正在读取品牌设置…" />;
  const shownName = name ?? branding.systemName_Client;

  const run = async (key: string, call: () => Promise<ClientBranding>, done: string) => {
    setBusy(key);
    try {
      applyBranding(await call());
      notify.success(done);
      return true;
    } catch {
      return false; /* shown by the http client */
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title="系统名称">
        <Space.Compact style={{ maxWidth: 420, width: '100%' }}>
          <Input aria-label="系统名称" maxLength={30} value={shownName} onChange={(e) => setName(e.target.value)} placeholder="云文档" />
          <Button
            type="primary"
            loading={busy === 'name'}
            onClick={() => void run('name', () => api.setBrandingName(shownName), '系统名称已保存').then((ok) => ok && setName(null))}
          >
            保存
          </Button>
        </Space.Compact>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          显示在登录页、顶部菜单栏和浏览器标题上。
        </Typography.Paragraph>
      </Card>
      <SpaceNamesCard />
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))', gap: 16 }}>
        {IMAGES.map((img) => {
          const url = branding[img.field];
          return (
            <Card key={img.kind} size="small" title={img.title}>
              <div
                style={{
                  height: 120,
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  background: img.dark ? '#1f2329' : '#f5f6f7',
                  borderRadius: 6,
                  marginBottom: 8,
                }}
              >
                {url ? (
                  <img src={url} alt={img.title} style={{ maxWidth: '100%', maxHeight: 110, objectFit: 'contain' }} />
                ) : (
                  <Typography.Text style={{ color: img.dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.45)' }}>使用默认</Typography.Text>
                )}
              </div>
              <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                {img.hint}；支持 JPG、PNG、WebP、GIF，不超过 10 MB。
              </Typography.Paragraph>
              <Space>
                <Upload
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  showUploadList={false}
                  beforeUpload={(file) => {
                    void run(img.kind, () => api.setBrandingImage(img.kind, file), `${img.title}已更新`);
                    return false;
                  }}
                >
                  <Button loading={busy === img.kind} aria-label={`上传${img.title}`}>
                    上传图片
                  </Button>
                </Upload>
                <Button
                  disabled={!url}
                  onClick={() =>
                    modal.confirm({
                      title: '恢复默认',
                      content: `删除已上传的${img.title}，恢复默认样式？`,
                      okText: '恢复默认',
                      cancelText: '取消',
                      onOk: () => run(img.kind, () => api.clearBrandingImage(img.kind), `${img.title}已恢复默认`),
                    })
                  }
                >
                  恢复默认
                </Button>
              </Space>
            </Card>
          );
        })}
      </div>
    </Space>
  );
}
