// scripts/build-changed.mjs (what `npm start` runs before the server): a package is built again
// only when its output is missing or an input changed (its own files, shared/ for the web
// packages, the lock file), never for the server's tests or its own output. (That `npm start`
// then serves the existing build is e2e/tests/19-restart.test.mjs.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/build-changed.mjs');

/** Runs the script's exported functions in a child (it is an ES module) and returns what `body` prints as JSON. */
function inScript(root: string, body: string): any {
  const code = `import * as m from ${JSON.stringify(SCRIPT)}; const root = ${JSON.stringify(root)}; const pkg = (name) => m.PACKAGES.find((p) => p.name === name); const out = await (async () => { ${body} })(); console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code]).toString().trim().split('\n').pop()!);
}

describe('building only what changed (npm start)', () => {
  let root: string;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-build-changed-'));
    write('package-lock.json', '{"lockfileVersion":3}');
    write('shared/src/index.ts', 'export const a = 1;');
    write('shell/package.json', '{"name":"@app/shell"}');
    write('shell/src/main.tsx', 'console.log(1);');
    write('shell/src/main.test.tsx', 'it("x", () => undefined);');
    write('server/package.json', '{"name":"server"}');
    write('server/src/server.ts', 'console.log(2);');
    write('server/test/a.test.ts', 'it("x", () => undefined);');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const staleNow = (name: string): boolean => inScript(root, `return m.stale(root, pkg('${name}')).stale;`);
  const build = (name: string) => {
    write(`${name}/dist/index.js`, 'built');
    inScript(root, `m.markBuilt(root, pkg('${name}'), m.inputsDigest(root, pkg('${name}'))); return true;`);
  };

  test('never built: stale; built: current; its output and the server’s tests are not inputs', () => {
    expect(staleNow('shell')).toBe(true);
    build('shell');
    build('server');
    expect(staleNow('shell')).toBe(false);
    expect(staleNow('server')).toBe(false);
    write('shell/dist/other.js', 'more output');
    write('server/test/b.test.ts', 'it("y", () => undefined);');
    expect(staleNow('shell')).toBe(false);
    expect(staleNow('server')).toBe(false);
  });

  test('a changed source, a changed file of shared/ (web packages only) or lock file makes it stale', () => {
    write('shell/src/main.tsx', 'console.log(3);');
    expect(staleNow('shell')).toBe(true);
    build('shell');
    write('shared/src/index.ts', 'export const a = 2;');
    expect(staleNow('shell')).toBe(true);
    expect(staleNow('server')).toBe(false);
    build('shell');
    write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
    expect(staleNow('shell')).toBe(true);
    expect(staleNow('server')).toBe(true);
    build('shell');
    build('server');
    // a removed output folder is built again
    fs.rmSync(path.join(root, 'server/dist'), { recursive: true });
    expect(staleNow('server')).toBe(true);
  });
});
