#!/usr/bin/env node
// Builds the packages whose sources changed since their last build, and only those: what
// `npm start` runs before the server, so that a restart with unchanged sources serves the build
// it has (in a second or two) and a fresh clone still builds everything in the same one command.
//
// A package's inputs are its files outside node_modules and its output folder (sources,
// configuration, package.json), those of `shared/` (every web package builds it in), and the
// lock file. Their SHA-256, by path and content, is written next to the build
// (`<package>/<out>/.build-inputs`) once the build succeeds; a package is built again when
// its output folder is missing or the digest differs. `--force` builds everything.
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = '.build-inputs';

/** The workspaces that have a build, in package.json's order; each builds into `dist`. */
export const PACKAGES = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  .workspaces.filter((name) => JSON.parse(fs.readFileSync(path.join(ROOT, name, 'package.json'), 'utf8')).scripts?.build)
  .map((name) => ({ name, out: 'dist' }));

const SKIP = new Set(['node_modules', '.git', 'coverage']);

/** Every file under `dir` (relative to `base`), but the folders in `skip`. */
function filesUnder(dir, base, skip) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name) && !skip.has(full)) out.push(...filesUnder(full, base, skip));
    } else if (entry.isFile()) out.push(path.relative(base, full));
  }
  return out;
}

/** The digest of a package's inputs (its own files, `shared/` for the web packages, the lock file). */
export function inputsDigest(root, pkg) {
  const dir = path.join(root, pkg.name);
  const skip = new Set([path.join(dir, pkg.out), path.join(dir, 'test')]);
  const files = filesUnder(dir, root, skip);
  if (pkg.name !== 'server') files.push(...filesUnder(path.join(root, 'shared'), root, new Set()));
  if (fs.existsSync(path.join(root, 'package-lock.json'))) files.push('package-lock.json');
  const hash = crypto.createHash('sha256');
  for (const file of files.sort()) {
    hash.update(`${file}\n`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\n');
  }
  return hash.digest('hex');
}

/** Whether the package needs a build: no output yet, or inputs other than those of its last build. */
export function stale(root, pkg) {
  const stamp = path.join(root, pkg.name, pkg.out, STAMP);
  if (!fs.existsSync(stamp)) return { stale: true, digest: inputsDigest(root, pkg) };
  const digest = inputsDigest(root, pkg);
  return { stale: fs.readFileSync(stamp, 'utf8').trim() !== digest, digest };
}

export function markBuilt(root, pkg, digest) {
  fs.writeFileSync(path.join(root, pkg.name, pkg.out, STAMP), `${digest}\n`);
}

function npmBuild(name) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'build', '-w', name], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(127));
  });
}

async function main() {
  const force = process.argv.includes('--force');
  const t0 = Date.now();
  const built = [];
  for (const pkg of PACKAGES) {
    const { stale: needed, digest } = force ? { stale: true, digest: inputsDigest(ROOT, pkg) } : stale(ROOT, pkg);
    if (!needed) continue;
    console.log(`云文档：构建 ${pkg.name}（源文件有变化或尚未构建）`);
    const code = await npmBuild(pkg.name);
    if (code !== 0) {
      console.error(`云文档：构建 ${pkg.name} 失败（退出码 ${code}）`);
      process.exit(code);
    }
    markBuilt(ROOT, pkg, digest);
    built.push(pkg.name);
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(built.length ? `云文档：已构建 ${built.join('、')}（${seconds} 秒）` : `云文档：源文件没有变化，使用已有的构建（检查用时 ${seconds} 秒）`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
