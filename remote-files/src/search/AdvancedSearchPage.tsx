// 高级搜索 of 云文档 (/file/advancedSearch): a keyword searched in the names (文件名) or in the
// documents' text (全文), narrowed by space, kind, extension, size, date, owner and tags, and
// the results paged on the server. The form, the mode and the page are kept in session storage
// (searchInfo.ts), so coming back shows the same search; a link with ?keyword= starts a new one.
import { useEffect, useRef, useState } from 'react';
import { Button, Col, DatePicker, Form, Input, InputNumber, Radio, Row, Select, Space } from 'antd';
import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router-dom';
import { DATE_FORMAT, formatDate, useRoles } from '@app/shared';
import { LoadError, RemotePage, SectionEmpty } from '@app/shared/ui';
import { OwnerField } from './OwnerField';
import { SearchResults } from './SearchResults';
import {
  DEFAULT_FILTERS,
  EMPTY_INFO,
  KEYWORD_MAX_LENGTH,
  loadSearchInfo,
  normalizeExtensions,
  saveSearchInfo,
  searchFromUrl,
  SIZE_UNITS,
  toQuery,
  type SearchFilters,
  type SearchInfo,
} from './searchInfo';
import { TagSelect } from './TagSelect';
import { useSearch } from './useSearch';

/** The form's values: the stored filters with the dates as dayjs values for the picker. */
type FormValues = Omit<SearchFilters, 'updated'> & { updated: [Dayjs, Dayjs] | null };

const toForm = (f: SearchFilters): FormValues => ({
  ...f,
  updated: f.updated ? [dayjs(f.updated[0], DATE_FORMAT), dayjs(f.updated[1], DATE_FORMAT)] : null,
});

const fromForm = (v: Partial<FormValues>): SearchFilters => {
  const f = { ...DEFAULT_FILTERS, ...v } as FormValues;
  const [from, to] = f.updated ?? [];
  return {
    ...f,
    keyword: f.keyword ?? '',
    extensions: normalizeExtensions(f.extensions ?? []),
    sizeMin: f.sizeMin ?? null,
    sizeMax: f.sizeMax ?? null,
    owner: f.owner ?? null,
    tagIds: f.tagIds ?? [],
    updated: from && to ? [formatDate(from), formatDate(to)] : null,
  };
};

/** The stored search, unless the URL names a keyword: then that keyword is searched at once. */
function startingInfo(params: URLSearchParams): SearchInfo {
  const stored = loadSearchInfo();
  const fromUrl = searchFromUrl(params);
  if (!fromUrl) return stored;
  const filters = { ...stored.filters, keyword: fromUrl.keyword, mode: fromUrl.mode ?? stored.filters.mode };
  return { ...stored, filters, applied: filters, page: 1 };
}

const EXTENSION_OPTIONS = ['docx', 'doc', 'xlsx', 'xls', 'pptx', 'ppt', 'pdf', 'txt', 'md', 'zip', 'jpg', 'png', 'mp4'].map((e) => ({
  value: e,
  label: e,
}));

const keywordRule = {
  validator: (_: unknown, value?: string) => {
    const k = (value ?? '').trim();
    if (!k) return Promise.reject(new Error('请输入搜索关键字'));
    if (k.length > KEYWORD_MAX_LENGTH) return Promise.reject(new Error(`关键字不能超过 ${KEYWORD_MAX_LENGTH} 个字符`));
    return Promise.resolve();
  },
};

export interface AdvancedSearchPageProps {
  /** the heading (the menu's title of the page) */
  title?: string;
}

export function AdvancedSearchPage({ title = '高级搜索' }: AdvancedSearchPageProps) {
  const [params, setParams] = useSearchParams();
  const roles = useRoles();
  const [info, setInfo] = useState<SearchInfo>(() => startingInfo(params));
  // 搜索 pressed again for the same filters asks the server again
  const [attempt, setAttempt] = useState(0);
  const [form] = Form.useForm<FormValues>();
  // what the form shows: stored as the user edits it, without drawing the page again
  const draft = useRef(info.filters);
  const [initialValues] = useState(() => toForm(info.filters));
  const save = (next: SearchInfo) => saveSearchInfo({ ...next, filters: draft.current });

  // the whole state survives leaving the page and a reload
  useEffect(() => save(info), [info]); // eslint-disable-line react-hooks/exhaustive-deps

  // a link with ?keyword= (also while the page is open): search it, then drop it from the URL
  // so that it does not come back over the user's later searches
  useEffect(() => {
    const fromUrl = searchFromUrl(params);
    if (!fromUrl) return;
    const filters = { ...draft.current, keyword: fromUrl.keyword, mode: fromUrl.mode ?? draft.current.mode };
    draft.current = filters;
    form.setFieldsValue({ keyword: filters.keyword, mode: filters.mode });
    setInfo({ ...info, filters, applied: filters, page: 1 });
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('keyword');
        next.delete('mode');
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);

  const { applied } = info;
  const search = useSearch(applied ? { mode: applied.mode, query: toQuery(applied, info.page, info.pageSize) } : null, attempt);

  const submit = (values: FormValues) => {
    const filters = fromForm(values);
    draft.current = filters;
    setInfo((i) => ({ ...i, filters, applied: filters, page: 1 }));
    setAttempt((a) => a + 1);
  };

  const reset = () => {
    form.setFieldsValue(toForm(DEFAULT_FILTERS));
    form.setFields([{ name: 'keyword', errors: [] }]);
    draft.current = DEFAULT_FILTERS;
    setInfo((i) => ({ ...EMPTY_INFO, pageSize: i.pageSize }));
  };

  const onValuesChange = (changed: Partial<FormValues>, all: FormValues) => {
    draft.current = fromForm(all);
    save(info);
    // the mode and the order change the results shown at once
    if (applied && ('mode' in changed || 'sortField' in changed || 'sortOrder' in changed)) form.submit();
  };

  const results = !applied ? (
    <SectionEmpty description="输入关键字，按条件搜索文件和文件夹" note="文件名搜索匹配名称中的文字；全文搜索匹配文档内容中的文字" />
  ) : search.status === 'error' ? (
    <LoadError message={search.message} onRetry={search.retry} />
  ) : (
    <SearchResults
      keyword={applied.keyword.trim()}
      result={search.data}
      loading={search.status !== 'ready'}
      page={info.page}
      pageSize={info.pageSize}
      onPage={(page, pageSize) => setInfo((i) => ({ ...i, page, pageSize }))}
    />
  );

  return (
    <RemotePage title={title}>
      <Form<FormValues>
        form={form}
        layout="vertical"
        aria-label="搜索条件"
        initialValues={initialValues}
        onValuesChange={onValuesChange}
        onFinish={submit}
        style={{ marginBottom: 8 }}
      >
        <Row gutter={16} align="bottom">
          <Col flex="1 1 320px">
            <Form.Item name="keyword" label="关键字" rules={[keywordRule]}>
              <Input allowClear placeholder="输入文件名或文档内容中的文字" prefix={<SearchOutlined />} />
            </Form.Item>
          </Col>
          <Col flex="none">
            <Form.Item name="mode" label="搜索范围">
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'name', label: '文件名' },
                  { value: 'content', label: '全文' },
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="spaceType" label="空间">
              <Radio.Group
                optionType="button"
                options={[
                  { value: 0, label: '全部' },
                  { value: 2, label: '个人空间', disabled: roles?.personalSpace === false },
                  { value: 1, label: '企业空间', disabled: roles?.publicSpace === false },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="type" label="类型">
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'all', label: '全部' },
                  { value: 'folder', label: '文件夹' },
                  { value: 'file', label: '文件' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="extensions" label="扩展名" normalize={(v?: string[]) => normalizeExtensions(v ?? [])}>
              <Select
                mode="tags"
                allowClear
                placeholder="如 docx、pdf，可输入多个"
                tokenSeparators={[',', '，', ' ']}
                options={EXTENSION_OPTIONS}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item label="大小">
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="sizeMin" noStyle>
                  <InputNumber aria-label="最小大小" min={0} placeholder="最小" style={{ width: '38%' }} />
                </Form.Item>
                <Form.Item
                  name="sizeMax"
                  noStyle
                  dependencies={['sizeMin']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: (_: unknown, max?: number | null) => {
                        const min = getFieldValue('sizeMin') as number | null | undefined;
                        return min != null && max != null && max < min
                          ? Promise.reject(new Error('最大值不能小于最小值'))
                          : Promise.resolve();
                      },
                    }),
                  ]}
                >
                  <InputNumber aria-label="最大大小" min={0} placeholder="最大" style={{ width: '38%' }} />
                </Form.Item>
                <Form.Item name="sizeUnit" noStyle>
                  <Select aria-label="大小单位" style={{ width: '24%' }} options={SIZE_UNITS.map((u) => ({ value: u, label: u }))} />
                </Form.Item>
              </Space.Compact>
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="updated" label="修改时间">
              <DatePicker.RangePicker style={{ width: '100%' }} placeholder={['开始日期', '结束日期']} allowEmpty={[false, false]} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="owner" label="所有者">
              <OwnerField />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="tagIds" label="标签">
              <TagSelect />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} xl={8}>
            <Form.Item label="排序">
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="sortField" noStyle>
                  <Select
                    aria-label="排序方式"
                    style={{ width: '60%' }}
                    options={[
                      { value: 'updatedAt', label: '最近修改' },
                      { value: 'name', label: '名称' },
                      { value: 'size', label: '大小' },
                    ]}
                  />
                </Form.Item>
                <Form.Item name="sortOrder" noStyle>
                  <Select
                    aria-label="排序方向"
                    style={{ width: '40%' }}
                    options={[
                      { value: 'desc', label: '降序' },
                      { value: 'asc', label: '升序' },
                    ]}
                  />
                </Form.Item>
              </Space.Compact>
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            搜索
          </Button>
          <Button icon={<UndoOutlined />} onClick={reset}>
            重置
          </Button>
        </Space>
      </Form>
      {results}
    </RemotePage>
  );
}
