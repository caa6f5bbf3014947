// 云文档's notices as DingTalk 工作通知 on SQLite and PostgreSQL, against the local fake of
// DingTalk's open API (support/dingtalk-fake.ts): an approval waiting goes out at once, one
// message to every approver's DingTalk userid (synced from the contacts, or found for the union
// id of a DingTalk sign-in and kept) with the title, the text, the time and the link back;
// share notices wait for the digest and go out together; a person without DingTalk is skipped
// and listed for administrators as 钉钉; getsendresult is asked 30 s later and the people it
// lists as not reached are marked failed with the reason; DingTalk's errors are retried with
// backoff, then failed; a refused token is fetched again; identical notices to one person the
// same day go out with distinct content; 通知设置 off skips; without DINGTALK_AGENT_ID there is no
// such channel.
import crypto from 'node:crypto';
import { call, createUser, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { defineOneStepFlow, startRequest } from './support/workflow';
import { makeFolder } from './support/content';
import { fakeDingTalk, type FakeContacts } from './support/dingtalk-fake';
import { CONFIRM_AFTER_MS, MAX_ATTEMPTS, retryBackoffMs } from '../src/modules/notice-delivery/sender';
import { CONFIRM_HORIZON_MS, DINGTALK_OFF, URGENT_DAILY_CAP } from '../src/modules/notice-delivery/dingtalk-channel';
import { withOutsideChannels } from '../src/modules/notice-delivery/plan';
import { insertNotices } from '../src/modules/notices/repository';
import type { App } from '../src/app';

const EXTERNAL = 'https://docs.example.com';
const AGENT_ID = 424242;
const TIME = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;

type Binding = 'synced' | 'union' | 'unknownUnion' | 'none';

describe.each(databaseKinds())('DingTalk 工作通知 (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const book: FakeContacts = { departments: [], members: [] };
  const fake = fakeDingTalk({}, book, { agentId: AGENT_ID });

  beforeAll(async () => {
    const base = await fake.start();
    server = await startServer(kind, {
      env: { DINGTALK_APP_KEY: 'dingapp', DINGTALK_APP_SECRET: 'dingsecret', DINGTALK_API_BASE: base, DINGTALK_OAPI_BASE: base, DINGTALK_AGENT_ID: String(AGENT_ID) },
    });
    // the tests drive the dispatcher and the senders themselves
    await server.app.services.dispatcher.stop();
    await server.app.services.noticeMailer.stop();
    await server.app.services.noticeDingTalk.stop();
    adminToken = (await login(server.app)).token;
    await ok(server.app, 'PUT', '/api/Admin/Branding', { token: adminToken, body: { systemName_Client: '星河文档' } });
    // mail stays off; its external address makes the links
    await ok(server.app, 'PUT', '/api/Admin/MailSettings', { token: adminToken, body: { enabled: false, externalUrl: `${EXTERNAL}/` } });
  });
  afterAll(async () => {
    await server?.close();
    await fake.stop();
  });
  // each test's deliveries end with it (the sender works every due row in the database)
  afterEach(async () => {
    await app().db.updateTable('notice_deliveries').set({ status: 'cancelled' }).where('status', 'in', ['pending', 'sending', 'checking']).execute();
    fake.work.results = {};
    fake.work.sendErrors.length = 0;
    fake.work.resultErrors.length = 0;
  });

  const app = () => server.app;
  const dispatch = () => app().services.dispatcher.runOnce();
  const sender = () => app().services.noticeDingTalk;
  const sentTo = (userid: string) => fake.work.sent.filter((m) => m.userids.includes(userid));
  const calls = (path: string) => fake.seen.filter((s) => s.path === path);

  async function person(label: string, binding: Binding = 'synced') {
    const u = await createUser(app(), adminToken, { nickName: `${label}${crypto.randomUUID().slice(0, 4)}` });
    const session = await login(app(), u.userName, u.password);
    const userid = `dt-${u.userName}`;
    const id = Number(u.userId);
    if (binding === 'synced') await app().db.updateTable('users').set({ source: 'dingtalk', external_id: userid }).where('id', '=', id).execute();
    if (binding === 'union') {
      book.members.push({ userid, unionid: `union-${u.userName}`, name: label, dept_id_list: [1] });
      await app().db.updateTable('users').set({ dingtalk_union_id: `union-${u.userName}` }).where('id', '=', id).execute();
    }
    if (binding === 'unknownUnion') await app().db.updateTable('users').set({ dingtalk_union_id: `union-gone-${u.userName}` }).where('id', '=', id).execute();
    return { ...u, token: session.token as string, userid: binding === 'synced' || binding === 'union' ? userid : '' };
  }
  type Person = Awaited<ReturnType<typeof person>>;

  const define = (approvers: Person[]) => defineOneStepFlow(app(), adminToken, approvers.map((a) => a.userId), '钉钉流程');
  const start = (initiator: Person, definitionId: string, title: string, on: App = app()) => startRequest(on, initiator.token, definitionId, title);
  async function share(owner: Person, names: string[], targets: Person[]) {
    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: owner.token }))[0].id;
    for (const name of names) {
      const folder = await makeFolder(app(), owner.token, root, name);
      await ok(app(), 'POST', '/api/User/Shares', {
        token: owner.token,
        body: { fileIds: [folder.id], shareType: 1, level: 1, expireAt: null, downloadLimit: null, targets: targets.map((t) => ({ type: 1, id: t.userId })) },
      });
    }
  }
  const deliveriesOf = (u: Person) =>
    app()
      .db.selectFrom('notice_deliveries')
      .innerJoin('notices', 'notices.id', 'notice_deliveries.notice_id')
      .select(['notice_deliveries.id', 'notice_deliveries.channel', 'notice_deliveries.status', 'notice_deliveries.reason', 'notice_deliveries.attempts', 'notice_deliveries.next_at', 'notice_deliveries.recipient', 'notice_deliveries.task_id', 'notices.title'])
      .where('notice_deliveries.user_id', '=', Number(u.userId))
      .where('notice_deliveries.channel', '=', 'dingtalk')
      .orderBy('notice_deliveries.id')
      .execute();
  const setMine = (u: Person, body: Record<string, unknown>) => ok(app(), 'PUT', '/api/Account/NoticeSettings', { token: u.token, body });

  test('an approval waiting goes out at once: one message to both approvers’ userids (synced, or found by union id and kept), with the title, text, time and link; confirmed 30 s later', async () => {
    const [initiator, synced, viaUnion] = await Promise.all([person('发起人', 'none'), person('钉钉甲'), person('钉钉乙', 'union')]);
    const def = await define([synced, viaUnion]);
    const id = await start(initiator, def, '上海出差报销');
    await dispatch();
    const before = fake.work.sent.length;
    const t0 = Date.now();
    const round = await sender().runOnce(t0);
    expect(round).toMatchObject({ messages: 1, sent: 2, failed: 0, skipped: 0 });

    const [message, ...more] = fake.work.sent.slice(before);
    expect(more).toEqual([]);
    expect(message.agentId).toBe(AGENT_ID);
    expect([...message.userids].sort()).toEqual([synced.userid, viaUnion.userid].sort());
    expect(message.msg.msgtype).toBe('action_card');
    const card = message.msg.action_card;
    expect(card.title).toBe('待审批：上海出差报销');
    expect(card.markdown).toContain('待审批：上海出差报销');
    expect(card.markdown).toContain(`${initiator.nickName} 的申请等待你审批`);
    expect(card.markdown).toMatch(new RegExp(`星河文档 · ${TIME.source}`));
    expect(card.single_title).toBe('查看详情');
    expect(card.single_url).toBe(`${EXTERNAL}/workflow/informationDetails?id=${id}`);
    // the union id was looked up once and kept
    expect(calls('/topapi/user/getbyunionid').filter((c) => c.body.unionid === `union-${viaUnion.userName}`)).toHaveLength(1);
    const kept = await app().db.selectFrom('dingtalk_userids').selectAll().where('union_id', '=', `union-${viaUnion.userName}`).executeTakeFirstOrThrow();
    expect(kept.userid).toBe(viaUnion.userid);

    // taken by DingTalk, not yet known to be delivered
    for (const u of [synced, viaUnion]) {
      expect((await deliveriesOf(u)).map((d) => [d.status, d.recipient, d.task_id])).toEqual([['checking', u.userid, String(message.taskId)]]);
    }
    const asked = () => calls('/topapi/message/corpconversation/getsendresult').filter((c) => c.body.task_id === message.taskId);
    expect((await sender().runOnce(t0 + CONFIRM_AFTER_MS - 1)).confirmed).toBe(0);
    expect(asked()).toHaveLength(0);
    expect((await sender().runOnce(t0 + CONFIRM_AFTER_MS)).confirmed).toBe(2);
    expect(asked()).toEqual([expect.objectContaining({ body: { agent_id: AGENT_ID, task_id: message.taskId } })]);
    for (const u of [synced, viaUnion]) expect((await deliveriesOf(u)).map((d) => d.status)).toEqual(['sent']);

    // the next notice finds the kept userid: no second lookup, nothing sent twice
    await start(initiator, await define([viaUnion]), '第二个申请');
    await dispatch();
    await sender().runOnce(t0 + 60_000);
    expect(sentTo(viaUnion.userid)).toHaveLength(2);
    expect(calls('/topapi/user/getbyunionid').filter((c) => c.body.unionid === `union-${viaUnion.userName}`)).toHaveLength(1);
    expect((await sender().runOnce(t0 + 120_000)).messages).toBe(0);
  });

  test('share notices wait for the digest and go out in one message listing them, with links and a button to 消息中心', async () => {
    const [owner, reader] = await Promise.all([person('分享人', 'none'), person('读者')]);
    await share(owner, ['一季度', '二季度', '三季度'], [reader]);
    await dispatch();
    const t0 = Date.now();
    const first = await sender().runOnce(t0);
    expect(first).toMatchObject({ messages: 0, parked: 3 });
    expect(sentTo(reader.userid)).toEqual([]);

    expect((await sender().runOnce(t0 + 3600_000)).messages).toBe(1);
    const [digest] = sentTo(reader.userid);
    expect(digest.userids).toEqual([reader.userid]);
    const card = digest.msg.action_card;
    expect(card.title).toBe('星河文档：你有 3 条新消息');
    for (const q of ['一季度', '二季度', '三季度']) expect(card.markdown).toContain(`${owner.nickName} 分享给你：“${q}”`);
    expect(card.markdown).toContain(`(${EXTERNAL}/file/shareme)`);
    expect(card.markdown).toContain('个人设置 › 通知设置');
    expect(card.single_title).toBe('打开消息中心');
    expect(card.single_url).toBe(`${EXTERNAL}/`);
    const rows = await deliveriesOf(reader);
    expect(rows.map((d) => [d.status, d.task_id])).toEqual(Array(3).fill(['checking', String(digest.taskId)]));
  });

  test('a person without DingTalk is skipped and listed for administrators as 钉钉; a union id DingTalk does not know is skipped too, and not asked again', async () => {
    const [initiator, none, gone, bound] = await Promise.all([person('发起人', 'none'), person('无钉钉', 'none'), person('已离开', 'unknownUnion'), person('已绑定')]);
    const mine = await ok(app(), 'GET', '/api/Account/NoticeSettings', { token: none.token });
    expect(mine.channels.map((c: any) => c.key)).toEqual(['inApp', 'mail', 'dingtalk']);
    expect(mine.channels.find((c: any) => c.key === 'dingtalk')).toMatchObject({ name: '钉钉', available: false, note: expect.stringContaining('没有绑定钉钉') });
    expect(mine.rows.find((r: any) => r.kind === 'approval.waiting').channels.dingtalk).toEqual({ enabled: true, fixed: false });
    expect((await ok(app(), 'GET', '/api/Account/NoticeSettings', { token: bound.token })).channels.find((c: any) => c.key === 'dingtalk')).toMatchObject({ available: true, note: '' });

    const def = await define([none, gone]);
    await start(initiator, def, '没有钉钉的审批');
    await dispatch();
    // known at once: nothing to send to
    expect((await deliveriesOf(none)).map((d) => [d.status, d.reason])).toEqual([['skipped', '未绑定钉钉']]);
    // the union id is looked up by the sender: DingTalk knows nobody by it
    expect((await deliveriesOf(gone)).map((d) => d.status)).toEqual(['pending']);
    const round = await sender().runOnce();
    expect(round).toMatchObject({ messages: 0, skipped: 1 });
    expect((await deliveriesOf(gone)).map((d) => [d.status, d.reason])).toEqual([['skipped', '未绑定钉钉']]);
    const lookups = () => calls('/topapi/user/getbyunionid').filter((c) => c.body.unionid === `union-gone-${gone.userName}`).length;
    expect(lookups()).toBe(1);
    await start(initiator, def, '再次审批');
    await dispatch();
    expect((await deliveriesOf(gone)).map((d) => d.status)).toEqual(['skipped', 'skipped']);
    expect(lookups()).toBe(1);

    const page = await ok(app(), 'GET', '/api/Admin/NoticeDeliveries', { token: adminToken, query: { status: 'skipped', page: 1, pageSize: 100 } });
    expect(page.data.find((d: any) => d.userId === none.userId && d.title === '待审批：没有钉钉的审批')).toMatchObject({
      userName: none.userName,
      kind: 'approval.waiting',
      title: '待审批：没有钉钉的审批',
      channel: 'dingtalk',
      channelName: '钉钉',
      status: 'skipped',
      reason: '未绑定钉钉',
      recipient: '',
    });
  });

  test('getsendresult lists people as not reached: their deliveries are failed with the reason and listed; one not listed yet is asked again, then taken as sent', async () => {
    const [initiator, limited, left, slow, fine] = await Promise.all([person('发起人', 'none'), person('超限'), person('离职'), person('未回报'), person('正常')]);
    fake.work.results[limited.userid] = { forbidden: '143105' };
    fake.work.results[left.userid] = 'invalid';
    fake.work.results[slow.userid] = 'pending';
    fake.work.results[fine.userid] = 'read';
    await start(initiator, await define([limited, left, slow, fine]), '送达检查');
    await dispatch();
    const t0 = Date.now();
    expect((await sender().runOnce(t0)).messages).toBe(1);
    const checked = await sender().runOnce(t0 + CONFIRM_AFTER_MS);
    expect(checked).toMatchObject({ confirmed: 1, failed: 2 });
    expect((await deliveriesOf(limited)).map((d) => [d.status, d.reason])).toEqual([['failed', '钉钉未送达：超出每日发送上限']]);
    expect((await deliveriesOf(left)).map((d) => [d.status, d.reason])).toEqual([['failed', '钉钉未送达：用户不存在或已离职']]);
    expect((await deliveriesOf(fine)).map((d) => d.status)).toEqual(['sent']);
    // not listed yet: asked again a minute on, until an hour after sending
    expect((await deliveriesOf(slow)).map((d) => d.status)).toEqual(['checking']);
    const asked = () => calls('/topapi/message/corpconversation/getsendresult').length;
    const n = asked();
    await sender().runOnce(t0 + CONFIRM_AFTER_MS + 30_000);
    expect(asked()).toBe(n);
    await sender().runOnce(t0 + CONFIRM_AFTER_MS + 60_000);
    expect(asked()).toBe(n + 1);
    expect((await deliveriesOf(slow)).map((d) => d.status)).toEqual(['checking']);
    await sender().runOnce(t0 + CONFIRM_HORIZON_MS);
    expect((await deliveriesOf(slow)).map((d) => d.status)).toEqual(['sent']);

    const page = await ok(app(), 'GET', '/api/Admin/NoticeDeliveries', { token: adminToken, query: { status: 'failed', page: 1, pageSize: 100 } });
    expect(page.data.find((d: any) => d.userId === limited.userId)).toMatchObject({ channelName: '钉钉', recipient: limited.userid, reason: '钉钉未送达：超出每日发送上限', attempts: 1 });
  });

  test('an error of DingTalk (errcode ≠ 0) is retried after 2, 4, 8… seconds, then failed with a Chinese reason; a token DingTalk says ran out is fetched again', async () => {
    const [initiator, a] = await Promise.all([person('发起人', 'none'), person('重试')]);
    fake.work.sendErrors.push(...Array.from({ length: MAX_ATTEMPTS }, () => ({ errcode: 90018, errmsg: '调用过于频繁' })));
    await start(initiator, await define([a]), '钉钉繁忙');
    await dispatch();
    let t = Date.now();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const round = await sender().runOnce(t);
      const [row] = await deliveriesOf(a);
      expect(Number(row.attempts)).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(round.retried).toBe(1);
        expect(row.status).toBe('pending');
        expect(Number(row.next_at)).toBe(t + retryBackoffMs(attempt));
        expect(row.reason).toMatch(/^调用钉钉接口过于频繁，稍后重试（钉钉答复：调用过于频繁，错误码 90018）$/);
        expect((await sender().runOnce(t + retryBackoffMs(attempt) - 1)).retried).toBe(0);
        t += retryBackoffMs(attempt);
      } else {
        expect(round.failed).toBe(1);
        expect(row.status).toBe('failed');
        expect(row.reason).toBe(`调用钉钉接口过于频繁，稍后重试（钉钉答复：调用过于频繁，错误码 90018）（已尝试 ${MAX_ATTEMPTS} 次）`);
      }
    }
    expect(sentTo(a.userid)).toEqual([]);
    const failed = await ok(app(), 'GET', '/api/Admin/NoticeDeliveries', { token: adminToken, query: { status: 'failed' } });
    expect(failed.data.find((d: any) => d.userId === a.userId)).toMatchObject({ channelName: '钉钉', attempts: MAX_ATTEMPTS });

    // the token runs out: refused once, fetched again, sent; no attempt lost
    fake.work.expireToken();
    await start(initiator, await define([a]), '令牌过期');
    await dispatch();
    const from = fake.seen.length;
    const round = await sender().runOnce();
    expect(round).toMatchObject({ messages: 1, retried: 0 });
    const seen = fake.seen.slice(from);
    const sends = seen.filter((s) => s.path === '/topapi/message/corpconversation/asyncsend_v2');
    expect(sends).toHaveLength(2);
    expect(sends[0].token).not.toBe(sends[1].token);
    expect(seen.filter((s) => s.path === '/v1.0/oauth2/accessToken')).toHaveLength(1);
    expect(sentTo(a.userid).map((m) => m.msg.action_card.title)).toEqual(['待审批：令牌过期']);
    expect((await deliveriesOf(a)).filter((d) => d.title === '待审批：令牌过期').map((d) => [d.status, Number(d.attempts)])).toEqual([['checking', 1]]);
  });

  test('identical notices to one person the same day go out with distinct content (DingTalk would drop a repeat)', async () => {
    const a = await person('相同');
    const now = Date.now();
    const notice = (eventId: number) => ({
      user_id: Number(a.userId),
      kind: 'approval.waiting',
      title: '待审批：同一个标题',
      body: '同样的正文',
      object_type: 'workflow',
      object_id: '1',
      link: '/workflow/informationDetails?id=1',
      event_id: eventId,
      created_at: now,
    });
    const base = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    const make = (ids: number[]) => withOutsideChannels(app().services.dispatcher.outside, () => insertNotices(app().db, ids.map(notice)));
    await make([base, base + 1]);
    expect((await sender().runOnce(now)).messages).toBe(2);
    await make([base + 2]);
    expect((await sender().runOnce(now + 1000)).messages).toBe(1);
    const got = sentTo(a.userid);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((m) => JSON.stringify(m.msg))).size).toBe(3);
    expect(got.map((m) => m.msg.action_card.markdown.includes('今天第'))).toEqual([false, true, true]);
    // DingTalk took every one of them
    await sender().runOnce(now + 1000 + CONFIRM_AFTER_MS);
    expect((await deliveriesOf(a)).map((d) => [d.status, d.reason])).toEqual(Array(3).fill(['sent', '']));
  });

  test(`after ${URGENT_DAILY_CAP} messages to one person in a day, further urgent notices wait for the digest (DingTalk's daily limit per person)`, async () => {
    const a = await person('繁忙');
    const now = Date.now();
    const base = 800_000_000 + Math.floor(Math.random() * 1_000_000);
    const notices = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        user_id: Number(a.userId),
        kind: 'approval.remind',
        title: `催办：申请 ${from + i}`,
        body: '请尽快审批',
        object_type: 'workflow',
        object_id: String(from + i),
        link: `/workflow/informationDetails?id=${from + i}`,
        event_id: base + from + i,
        created_at: now,
      }));
    const make = (rows: ReturnType<typeof notices>) => withOutsideChannels(app().services.dispatcher.outside, () => insertNotices(app().db, rows));
    await make(notices(0, URGENT_DAILY_CAP));
    expect((await sender().runOnce(now)).messages).toBe(URGENT_DAILY_CAP);
    await make(notices(URGENT_DAILY_CAP, 2));
    expect((await sender().runOnce(now + 1000)).deferred).toBe(2);
    expect(sentTo(a.userid)).toHaveLength(URGENT_DAILY_CAP);
    // they join the hourly digest
    expect((await sender().runOnce(now + 2000)).parked).toBe(2);
    await sender().runOnce(now + 3600_000 + 2000);
    const last = sentTo(a.userid).slice(URGENT_DAILY_CAP);
    expect(last.map((m) => m.msg.action_card.title)).toEqual(['星河文档：你有 2 条新消息']);
  });

  test('通知设置 off: no delivery for what comes after; a waiting one is skipped; a policy forcing it off wins', async () => {
    const [owner, initiator, reader] = await Promise.all([person('分享人', 'none'), person('发起人', 'none'), person('关闭')]);
    await share(owner, ['周报'], [reader]);
    await dispatch();
    expect((await deliveriesOf(reader)).map((d) => d.status)).toEqual(['pending']);
    await setMine(reader, { settings: { 'share.received': { dingtalk: false }, 'approval.waiting': { dingtalk: false } } });
    const round = await sender().runOnce(Date.now() + 3600_000);
    expect(round).toMatchObject({ messages: 0, skipped: 1 });
    expect((await deliveriesOf(reader)).map((d) => [d.status, d.reason])).toEqual([['skipped', '通知设置已关闭']]);
    await start(initiator, await define([reader]), '关闭后');
    await dispatch();
    expect(await deliveriesOf(reader)).toHaveLength(1);
    expect((await ok(app(), 'GET', '/api/Notices', { token: reader.token, query: { page: 1, pageSize: 10 } })).data[0].title).toBe('待审批：关闭后');

    const other = await person('强制');
    const policy = await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: { 'approval.waiting': { dingtalk: 'off' } } } });
    expect(policy.channels).toEqual([
      { key: 'inApp', name: '站内消息' },
      { key: 'mail', name: '邮件' },
      { key: 'dingtalk', name: '钉钉' },
    ]);
    expect(policy.rules['approval.waiting']).toEqual({ inApp: 'user', mail: 'user', dingtalk: 'off' });
    try {
      await start(initiator, await define([other]), '强制关闭');
      await dispatch();
      expect(await deliveriesOf(other)).toEqual([]);
      expect((await ok(app(), 'GET', '/api/Account/NoticeSettings', { token: other.token })).rows.find((r: any) => r.kind === 'approval.waiting').channels.dingtalk).toEqual({ enabled: false, fixed: true });
    } finally {
      await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: { 'approval.waiting': { dingtalk: 'user' } } } });
    }
  });

  test('without DINGTALK_AGENT_ID there is no 钉钉 channel: not listed, not accepted, no deliveries; what an earlier configuration left waiting is skipped', async () => {
    const [initiator, a] = await Promise.all([person('发起人', 'none'), person('无通道')]);
    const def = await define([a]);
    // made while the channel is offered
    await start(initiator, def, '配置之前');
    await dispatch();
    expect((await deliveriesOf(a)).map((d) => d.status)).toEqual(['pending']);

    const plain = await server.restart({ DINGTALK_AGENT_ID: '' });
    await plain.services.dispatcher.stop();
    await plain.services.noticeMailer.stop();
    await plain.services.noticeDingTalk.stop();
    const mine = await ok(plain, 'GET', '/api/Account/NoticeSettings', { token: a.token });
    expect(mine.channels.map((c: any) => c.key)).toEqual(['inApp', 'mail']);
    expect(Object.keys(mine.rows[0].channels)).toEqual(['inApp', 'mail']);
    expect((await ok(plain, 'GET', '/api/Admin/NoticePolicy', { token: adminToken })).channels.map((c: any) => c.key)).toEqual(['inApp', 'mail']);
    const refused = await call(plain, 'PUT', '/api/Account/NoticeSettings', { token: a.token, body: { settings: { 'approval.waiting': { dingtalk: true } } } });
    expect([refused.status, refused.body.message]).toEqual([400, '未知的通知渠道：dingtalk']);

    await start(initiator, def, '配置之后', plain);
    await plain.services.dispatcher.runOnce();
    expect((await deliveriesOf(a)).map((d) => d.title)).toEqual(['待审批：配置之前']);
    const round = await plain.services.noticeDingTalk.runOnce();
    expect(round).toMatchObject({ messages: 0, skipped: 1 });
    expect((await deliveriesOf(a)).map((d) => [d.status, d.reason])).toEqual([['skipped', DINGTALK_OFF]]);
    expect(sentTo(a.userid)).toEqual([]);
  });

  test('the sender’s own round sends an urgent notice within seconds', async () => {
    const [initiator, a] = await Promise.all([person('发起人', 'none'), person('自动')]);
    const def = await define([a]);
    app().services.dispatcher.start(200);
    sender().start(200);
    try {
      const started = Date.now();
      await start(initiator, def, '自动发送');
      while (Date.now() - started < 8000 && !sentTo(a.userid).length) await new Promise((r) => setTimeout(r, 50));
      expect(sentTo(a.userid).map((m) => m.msg.action_card.title)).toEqual(['待审批：自动发送']);
    } finally {
      await app().services.dispatcher.stop();
      await sender().stop();
    }
  });
});
