// Figure 5: the file ferry between two deployments on this machine (内网 full, 外网 simple mode;
// SQLite, local disk) sharing a spool directory. One file of random bytes (BENCH_FERRY_MB,
// default 512) is uploaded to 内网, then timed through the three stages a user waits for:
//   submit   POST /api/Ferry/FerryTasks: SHA-256, type by content and the size checks (ClamAV
//            off: its time is ClamAV's, not ours), until the approval has started;
//   send     the approval's 同意 until the task is 传输中, its package in the spool (re-hashed
//            while copied; a large task is packed after the approval's reply);
//   arrive   the package in the spool until 外网 has verified it (SHA-256), stored it (MD5, a
//            hard link) and listed it for the recipient (the worker polls every 100 ms).
// Baseline, same file, same run: the least work those stages must do with the system's own
// tools: `sha256sum` (submit), `cp` then `sha256sum` of the copy (send), `sha256sum` and
// `md5sum` (arrive), each after `sync`. Medians of BENCH_FERRY_RUNS (default 3) runs.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiOk, createUser, login, personalRoot, startServer, waitFor } from '../../e2e/harness.mjs';
import { uploadFile } from '../../e2e/uploadClient.mjs';
import { median, ms, printTable, ratio } from '../lib/util.mjs';

export const id = 'ferry';
export const title = 'Figure 5: a file through the ferry (check, pack, verify on arrival) against sha256sum / cp / md5sum';

const MB = 1024 * 1024;
const FILE_MB = Number(process.env.BENCH_FERRY_MB || 512);
const RUNS = Number(process.env.BENCH_FERRY_RUNS || 3);

function timed(fn) {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

async function timedAsync(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const sync = () => execFileSync('sync');

export async function run() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-ferry-'));
  const spool = path.join(work, 'spool');
  const common = { FERRY_SECRET: 'bench-ferry-secret-0123456789', FERRY_POLL_MS: '100', CLAMAV_DB: path.join(work, 'none') };
  const inner = await startServer({ env: { ...common, FERRY_ZONE: '内网', FERRY_PEERS: `外网=spool:${spool}/to-outer`, FERRY_SPOOL_IN: `${spool}/to-inner` } });
  const outer = await startServer({ mode: 'simple', env: { ...common, FERRY_ZONE: '外网', FERRY_PEERS: `内网=spool:${spool}/to-inner`, FERRY_SPOOL_IN: `${spool}/to-outer` } });
  try {
    const admin = await login(inner);
    const outerAdmin = await login(outer);
    const bob = await createUser(outer, outerAdmin.token);
    const bobToken = (await login(outer, bob.userName, bob.password)).token;
    const settings = await apiOk(inner, 'GET', '/api/Ferry/Settings', { token: admin.token });
    const { zone, peers, antivirusEngine, antivirusMissing, secretConfigured, knownTypes, ...body } = settings;
    // random bytes have no type to whitelist; ClamAV is left out on purpose (see above)
    await apiOk(inner, 'PUT', '/api/Ferry/Settings', { token: admin.token, body: { ...body, typeCheck: false, antivirus: false } });
    const root = await personalRoot(inner, admin.token);

    const file = path.join(work, 'payload.bin');
    const out = fs.openSync(file, 'w');
    for (let n = 0; n < FILE_MB; n += 8) fs.writeSync(out, crypto.randomBytes(Math.min(8, FILE_MB - n) * MB));
    fs.closeSync(out);

    const rows = [];
    for (let i = 0; i < RUNS; i++) {
      // new content each run: an instant upload (秒传) of the same bytes would skip the transfer
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, crypto.randomBytes(16), 0, 16, 0);
      fs.closeSync(fd);
      const up = await uploadFile(inner, admin.token, root.id, file, { fileName: `payload-${i}.bin` });
      if (!up.item?.id) throw new Error('the upload did not return the file');
      const fileId = String(up.item.id);
      sync();
      let task;
      const submit = await timedAsync(async () => {
        task = await apiOk(inner, 'POST', '/api/Ferry/FerryTasks', { token: admin.token, body: { fileIds: [fileId], targetZone: '外网', recipients: [bob.userName], reason: 'bench' } });
      });
      if (task.status !== 'pending') throw new Error(`task ${task.taskId} is ${task.status}`);
      sync();
      let detail;
      const send = await timedAsync(async () => {
        await apiOk(inner, 'POST', `/api/Workflow/Instances/${task.instanceId}/Approve`, { token: admin.token, body: {} });
        await waitFor(async () => {
          detail = await apiOk(inner, 'GET', `/api/Ferry/FerryTasks/${task.taskId}`, { token: admin.token });
          return detail.status !== 'approved';
        }, 600_000, 'the package');
      });
      if (detail.status !== 'transferring') throw new Error(`task ${task.taskId} is ${detail.status}: ${detail.statusReason}`);
      sync();
      const arrive = await timedAsync(() =>
        waitFor(async () => (await apiOk(outer, 'GET', '/api/Ferry/Inbox?page=1&pageSize=50', { token: bobToken })).data.some((x) => x.taskId === task.taskId), 600_000, 'arrival'),
      );

      // the baseline: the same passes over the same bytes with the system's tools
      sync();
      const bSubmit = timed(() => execFileSync('sha256sum', [file]));
      const copy = path.join(work, 'copy.bin');
      sync();
      const bSend = timed(() => {
        execFileSync('cp', [file, copy]);
        execFileSync('sha256sum', [copy]);
      });
      sync();
      const bArrive = timed(() => {
        execFileSync('sha256sum', [copy]);
        execFileSync('md5sum', [copy]);
      });
      fs.rmSync(copy);
      rows.push({ submit, send, arrive, bSubmit, bSend, bArrive });
    }
    const m = (k) => median(rows.map((r) => r[k]));
    const table = [
      { stage: 'submit (SHA-256 + checks → approval)', ours: ms(m('submit')), base: ms(m('bSubmit')), r: ratio(m('submit'), m('bSubmit')) },
      { stage: 'send (approve → package in spool)', ours: ms(m('send')), base: ms(m('bSend')), r: ratio(m('send'), m('bSend')) },
      { stage: 'arrive (spool → verified, stored, listed)', ours: ms(m('arrive')), base: ms(m('bArrive')), r: ratio(m('arrive'), m('bArrive')) },
      {
        stage: 'total',
        ours: ms(m('submit') + m('send') + m('arrive')),
        base: ms(m('bSubmit') + m('bSend') + m('bArrive')),
        r: ratio(m('submit') + m('send') + m('arrive'), m('bSubmit') + m('bSend') + m('bArrive')),
      },
    ];
    console.log(`${FILE_MB} MB of random bytes, medians of ${RUNS} runs\n`);
    printTable(
      [
        { key: 'stage', title: 'stage' },
        { key: 'ours', title: '云文档', align: 'right' },
        { key: 'base', title: 'baseline (sha256sum/cp/md5sum)', align: 'right' },
        { key: 'r', title: 'ratio', align: 'right' },
      ],
      table,
    );
    return { fileMb: FILE_MB, runs: RUNS, rows, medians: { submit: m('submit'), send: m('send'), arrive: m('arrive'), baseline: { submit: m('bSubmit'), send: m('bSend'), arrive: m('bArrive') } } };
  } finally {
    await inner.stop();
    await outer.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
