// 协议: the service agreement and privacy policy shown on /service and /privacy (and linked
// from the login and registration pages), edited as plain text with a live preview.
import { useEffect, useState } from 'react';
import { App as AntApp, Button, Card, Col, Input, Row, Segmented, Skeleton, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { api, notify, type Agreement } from '@app/shared';
import { AgreementText } from '../pages/public/AgreementText';
import '../pages/public/public.css';

const MAX = 20_000;

export function AgreementsTab() {
  const { modal } = AntApp.useApp();
  const [kind, setKind] = useState<Agreement['kind']>('service');
  const [agreement, setAgreement] = useState<Agreement | null>(null);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    setAgreement(null);
    api
      .getAgreement(kind)
      .then((a) => {
        if (!live) return;
        setAgreement(a);
        setText(a.content);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [kind]);

  const save = async (content: string, done: string) => {
    setSaving(true);
    try {
      const saved = await api.setAgreement(kind, content);
      setAgreement(saved);
      setText(saved.content);
      notify.success(done);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  const dirty = agreement !== null && text !== agreement.content;
  const length = [...text].length;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Segmented<Agreement['kind']>
        value={kind}
        onChange={(k) => {
          if (dirty && !window.confirm('修改尚未保存，确定切换吗？')) return;
          setKind(k);
        }}
        options={[
          { value: 'service', label: '服务协议' },
          { value: 'privacy', label: '隐私政策' },
        ]}
      />
      {agreement ? (
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Card size="small" title="正文" extra={<Typography.Text type="secondary">空行分段；“# ”开头为小标题，“- ”开头为列表项</Typography.Text>}>
              <Input.TextArea aria-label={`${agreement.title}正文`} value={text} onChange={(e) => setText(e.target.value)} rows={18} />
              <Typography.Text type={length > MAX ? 'danger' : 'secondary'} style={{ display: 'block', marginTop: 4 }}>
                {length} / {MAX} 字 · {agreement.updatedAt === null ? '当前为内置文本' : `最后修改于 ${dayjs(agreement.updatedAt).format('YYYY-MM-DD HH:mm')}`}
              </Typography.Text>
              <Space style={{ marginTop: 12 }}>
                <Button type="primary" loading={saving} disabled={!dirty || length > MAX || !text.trim()} onClick={() => void save(text, `${agreement.title}已保存`)}>
                  保存
                </Button>
                <Button
                  disabled={agreement.updatedAt === null || saving}
                  onClick={() =>
                    modal.confirm({
                      title: '恢复内置文本',
                      content: `删除本单位编写的${agreement.title}，恢复云文档的内置文本？`,
                      okText: '恢复',
                      cancelText: '取消',
                      onOk: () => save('', `${agreement.title}已恢复内置文本`),
                    })
                  }
                >
                  恢复内置文本
                </Button>
              </Space>
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card size="small" title="预览" className="yw-article">
              <AgreementText content={text} />
            </Card>
          </Col>
        </Row>
      ) : (
        <Skeleton active />
      )}
    </Space>
  );
}
