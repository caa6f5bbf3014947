// 发送文件 of 云文档's file ferry: the target zone, the recipients on the other side, the reason,
// and the files, chosen from the user's spaces (FilePicker) or uploaded anew into the ferry's
// upload folder. After the upload queue settles, that folder's files are listed again and the
// new ones join the chosen files; its recent files can be ticked as well. 提交 sends the
// request; a task that a check blocked is explained file by file instead of a success toast.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Alert, Button, Checkbox, Form, Input, Select, Space, Spin, Typography } from 'antd';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import FolderOpenOutlined from '@ant-design/icons/FolderOpenOutlined';
import {
  announceFerryChange,
  api,
  FERRY_CHECK_TEXT,
  FERRY_REASON_MAX_LENGTH,
  FERRY_RECIPIENT_MAX_LENGTH,
  formatBytes,
  formatDateTime,
  notify,
  uploads,
  type CreatedFerryTask,
  type CreateFerryTaskBody,
  type FerryZones,
  type Item,
} from '@app/shared';
import { FileIcon } from '../FileIcon';
import { RowLink, useRowLinkStyle } from '../RowLink';
import { FilePicker } from '../SpacePickers';
import { useUploadsSettled } from '../UploadButton';
import { FERRY_TEXTS as T } from './common';

/** How many of the upload folder's files (newest first) are listed. */
export const FERRY_RECENT_PAGE_SIZE = 50;

export interface FerrySendFormProps {
  zones: FerryZones;
  /** offer 从空间选择 (the user's personal and enterprise spaces); default true */
  allowPick?: boolean;
  /** after a request the checks let through (not after a blocked one, which stays explained in the form) */
  onSubmitted?: (task: CreatedFerryTask) => void;
}

interface FormValues {
  targetZone?: string;
  recipients?: string[];
  reason?: string;
  files?: Item[];
}

interface BlockedInfo {
  number: string;
  reason: string;
  files: Array<{ fileId: string; name: string; messages: string[] }>;
}

/** Trimmed, without empty and repeated names. */
export function cleanRecipients(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const raw of list) {
    const name = String(raw).trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

async function blockedInfoOf(taskId: string): Promise<BlockedInfo> {
  try {
    const task = await api.getFerryTask(taskId, { errorMode: 'none' });
    return {
      number: task.number,
      reason: task.statusReason,
      files: task.files
        .filter((f) => f.blocked || f.checks.some((c) => c.result === 'failed'))
        .map((f) => ({
          fileId: f.fileId,
          name: f.name,
          messages: f.checks.filter((c) => c.result === 'failed').map((c) => `${FERRY_CHECK_TEXT[c.name] ?? c.name}：${c.message}`),
        })),
    };
  } catch {
    return { number: '', reason: '', files: [] };
  }
}

const mergeFiles = (list: Item[], more: Item[]) => [...list, ...more.filter((m) => !list.some((f) => f.id === m.id))];

type Recent = { status: 'loading' | 'ready' | 'error'; data: Item[] };

interface FilesFieldProps {
  id?: string;
  value?: Item[];
  onChange?: (files: Item[]) => void;
  zones: FerryZones;
  allowPick: boolean;
}

/** The chosen files, with the ways to add more: the spaces, an upload, the upload folder's files. */
function FilesField({ id, value = [], onChange, zones, allowPick }: FilesFieldProps) {
  useRowLinkStyle();
  const folderId = zones.uploadFolderId;
  const input = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState(false);
  const [recent, setRecent] = useState<Recent>({ status: 'loading', data: [] });
  // the folder's files (id → updatedAt) when the first upload still running was started
  const before = useRef<Map<string, string> | null>(null);
  const latest = useRef({ value, onChange, recent });
  latest.current = { value, onChange, recent };

  const fetchRecent = useCallback(async () => {
    const result = await api.getItems(
      folderId,
      { page: 1, pageSize: FERRY_RECENT_PAGE_SIZE, sortField: 'updatedAt', sortOrder: 'desc' },
      { errorMode: 'none' },
    );
    return result.items.data.filter((i) => i.type === 'file');
  }, [folderId]);

  const loadRecent = useCallback(async (): Promise<Item[] | null> => {
    if (!folderId) return null;
    setRecent((r) => ({ ...r, status: 'loading' }));
    try {
      const data = await fetchRecent();
      setRecent({ status: 'ready', data });
      return data;
    } catch {
      setRecent((r) => ({ ...r, status: 'error' }));
      return null;
    }
  }, [folderId, fetchRecent]);

  useEffect(() => {
    void loadRecent();
  }, [loadRecent]);

  useUploadsSettled(folderId || undefined, () => {
    void loadRecent().then((data) => {
      const snapshot = before.current;
      if (!snapshot || !data) return;
      before.current = null;
      // new files, and files replaced by a new version (same id, later time)
      const added = data.filter((i) => snapshot.get(i.id) !== i.updatedAt);
      const { value: chosen, onChange: change } = latest.current;
      if (added.length) change?.(mergeFiles(chosen, added));
    });
  });

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const target = e.currentTarget;
    const files = Array.from(target.files ?? []);
    target.value = ''; // the same files may be chosen again
    if (!files.length) return;
    if (!before.current) {
      const known = latest.current.recent.status === 'ready' ? latest.current.recent.data : await fetchRecent().catch(() => []);
      before.current = new Map(known.map((i) => [i.id, i.updatedAt]));
    }
    // the upload panel shows progress, refusals and failures
    uploads.enqueue(files, { wjFileId: folderId, type: 2 }).catch(() => undefined);
  };

  const chosenIds = new Set(value.map((f) => f.id));
  const toggle = (file: Item, on: boolean) =>
    onChange?.(on ? mergeFiles(value, [file]) : value.filter((f) => f.id !== file.id));
  const total = value.reduce((sum, f) => sum + (f.size || 0), 0);

  return (
    <div id={id} role="group" aria-label={T.files} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Space wrap>
        {allowPick ? (
          <Button icon={<FolderOpenOutlined />} onClick={() => setPicking(true)}>
            {T.pickFiles}
          </Button>
        ) : null}
        {folderId ? (
          <>
            <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
              {T.uploadFiles}
            </Button>
            <input ref={input} type="file" multiple hidden aria-label={T.uploadInput} data-ferry-upload="" onChange={(e) => void upload(e)} />
          </>
        ) : null}
      </Space>
      {!allowPick && !folderId ? <Typography.Text type="warning">{T.noUploadFolder}</Typography.Text> : null}
      {folderId ? (
        <Typography.Text type="secondary">{T.uploading}</Typography.Text>
      ) : null}

      {value.length ? (
        <div>
          <ul aria-label="已选文件" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {value.map((f) => (
              <li key={f.id} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '2px 0' }}>
                <FileIcon name={f.name} extension={f.extension} size={16} />
                <span>{f.name}</span>
                <Typography.Text type="secondary">{formatBytes(f.size)}</Typography.Text>
                <RowLink aria-label={`移除 ${f.name}`} onClick={() => toggle(f, false)}>
                  移除
                </RowLink>
              </li>
            ))}
          </ul>
          <Typography.Text type="secondary">
            共 {value.length} 个文件，{formatBytes(total)}
          </Typography.Text>
        </div>
      ) : (
        <Typography.Text type="secondary">{T.noFiles}</Typography.Text>
      )}

      {folderId ? (
        <section aria-label={T.recent} style={{ border: '1px solid rgba(5, 5, 5, 0.06)', borderRadius: 6, padding: '8px 12px' }}>
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
            <span>
              {T.recent}
              <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                {T.recentNote}
              </Typography.Text>
            </span>
            <RowLink onClick={() => void loadRecent()}>{T.refresh}</RowLink>
          </div>
          <div role="list" aria-label="上传文件夹中的文件" style={{ maxHeight: 200, overflow: 'auto', marginTop: 4 }}>
            {recent.status === 'loading' && !recent.data.length ? (
              <Spin size="small" />
            ) : recent.status === 'error' && !recent.data.length ? (
              <Typography.Text type="danger">{T.recentError}</Typography.Text>
            ) : recent.data.length ? (
              recent.data.map((f) => (
                <div role="listitem" key={f.id} style={{ padding: '2px 0' }}>
                  <Checkbox checked={chosenIds.has(f.id)} onChange={(e) => toggle(f, e.target.checked)}>
                    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                      <FileIcon name={f.name} extension={f.extension} size={16} />
                      {f.name}
                      <Typography.Text type="secondary">{formatBytes(f.size)}</Typography.Text>
                      <Typography.Text type="secondary">{formatDateTime(f.updatedAt)}</Typography.Text>
                    </span>
                  </Checkbox>
                </div>
              ))
            ) : (
              <Typography.Text type="secondary">{T.recentEmpty}</Typography.Text>
            )}
          </div>
        </section>
      ) : null}

      {allowPick ? (
        <FilePicker
          open={picking}
          title={T.pickFilesTitle}
          initialFiles={value}
          onOk={(picked) => {
            onChange?.(picked);
            setPicking(false);
          }}
          onCancel={() => setPicking(false)}
        />
      ) : null}
    </div>
  );
}

/** The request form of a file ferry (发送文件). */
export function FerrySendForm({ zones, allowPick = true, onSubmitted }: FerrySendFormProps) {
  const [form] = Form.useForm<FormValues>();
  const [submitting, setSubmitting] = useState(false);
  const [blocked, setBlocked] = useState<BlockedInfo | null>(null);
  const noTargets = zones.targets.length === 0;

  const submit = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body: CreateFerryTaskBody = {
      fileIds: (values.files ?? []).map((f) => f.id),
      targetZone: values.targetZone ?? '',
      recipients: cleanRecipients(values.recipients),
      reason: (values.reason ?? '').trim(),
    };
    setSubmitting(true);
    setBlocked(null);
    let created: CreatedFerryTask;
    try {
      created = await api.createFerryTask(body);
    } catch {
      setSubmitting(false);
      return; // the http client has shown why
    }
    announceFerryChange();
    if (created.status === 'blocked') {
      const info = await blockedInfoOf(created.taskId);
      setSubmitting(false);
      setBlocked(info);
      return;
    }
    setSubmitting(false);
    notify.success(T.submitted);
    form.resetFields();
    onSubmitted?.(created);
  };

  const removeBlocked = () => {
    if (!blocked) return;
    const ids = new Set(blocked.files.map((f) => f.fileId));
    form.setFieldValue(
      'files',
      (form.getFieldValue('files') as Item[] | undefined)?.filter((f) => !ids.has(f.id)),
    );
    setBlocked(null);
  };

  return (
    <div style={{ maxWidth: 760 }}>
      {noTargets ? <Alert type="warning" showIcon title={T.noTargets} style={{ marginBottom: 16 }} /> : null}
      {blocked ? (
        <Alert
          type="warning"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          title={blocked.number ? `${T.blocked}（${blocked.number}）` : T.blocked}
          description={
            blocked.files.length ? (
              <div>
                <div>{T.blockedNote}</div>
                <ul aria-label="被拦截的文件" style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
                  {blocked.files.map((f) => (
                    <li key={f.fileId}>
                      <strong>{f.name}</strong>
                      {f.messages.length ? `：${f.messages.join('；')}` : null}
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              blocked.reason || T.blockedUnknown
            )
          }
          action={
            blocked.files.length ? (
              <Button size="small" onClick={removeBlocked}>
                {T.removeBlocked}
              </Button>
            ) : undefined
          }
          closable={{ 'aria-label': '关闭' }}
          onClose={() => setBlocked(null)}
        />
      ) : null}
      <Form<FormValues>
        form={form}
        layout="vertical"
        requiredMark
        disabled={noTargets}
        initialValues={{ targetZone: zones.targets.length === 1 ? zones.targets[0] : undefined, recipients: [], reason: '', files: [] }}
      >
        <Form.Item
          label={T.files}
          name="files"
          required
          rules={[{ validator: (_, v: Item[] | undefined) => (v?.length ? Promise.resolve() : Promise.reject(new Error(T.needFiles))) }]}
        >
          <FilesField zones={zones} allowPick={allowPick} />
        </Form.Item>
        <Form.Item
          label={T.targetZone}
          name="targetZone"
          rules={[{ required: true, message: T.pickTargetZone }]}
          extra={zones.zone ? `从「${zones.zone}」发送` : undefined}
        >
          <Select
            placeholder={T.pickTargetZone}
            options={zones.targets.map((z) => ({ value: z, label: z }))}
            style={{ maxWidth: 320 }}
          />
        </Form.Item>
        <Form.Item
          label={T.recipients}
          name="recipients"
          required
          normalize={cleanRecipients}
          extra="对方网络区域中接收文件的用户名，可填写多个"
          rules={[
            {
              validator: (_, v: string[] | undefined) => {
                if (!v?.length) return Promise.reject(new Error(T.needRecipients));
                const long = v.find((name) => [...name].length > FERRY_RECIPIENT_MAX_LENGTH);
                return long
                  ? Promise.reject(new Error(`接收人不能超过 ${FERRY_RECIPIENT_MAX_LENGTH} 个字符：${long}`))
                  : Promise.resolve();
              },
            },
          ]}
        >
          <Select mode="tags" placeholder={T.recipientsPlaceholder} tokenSeparators={[',', '，', ';', '；']} open={false} suffixIcon={null} />
        </Form.Item>
        <Form.Item
          label={T.reason}
          name="reason"
          rules={[
            { required: true, whitespace: true, message: T.needReason },
            { max: FERRY_REASON_MAX_LENGTH, message: `摆渡原因不能超过 ${FERRY_REASON_MAX_LENGTH} 个字` },
          ]}
        >
          <Input.TextArea rows={4} maxLength={FERRY_REASON_MAX_LENGTH} showCount placeholder={T.reasonPlaceholder} />
        </Form.Item>
        <Button type="primary" loading={submitting} onClick={() => void submit()}>
          {T.submit}
        </Button>
      </Form>
    </div>
  );
}
