// make package: the npm package "ringscope" as a tarball in dist/
// (pkg/README.md is its README). Its files are the built static/ assets
// the library needs, the declarations (types/) and the Playwright kit
// (pkg/playwright); the version comes from the project's tags (git
// describe). A user of the package never needs Go.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
const stage = path.join(dist, 'ringscope');

// version: a tag vX.Y.Z is X.Y.Z; commits after it (or no tag at all)
// make a prerelease that names them: 1.2.3-dev.4.gabc1234, 0.0.0-dev.N.gSHA.
export function version(describe, count) {
  const dirty = describe.endsWith('-dirty') ? '.dirty' : '';
  const d = describe.replace(/-dirty$/, '');
  const tagged = /^v?(\d+\.\d+\.\d+)(?:-(\d+)-g([0-9a-f]+))?$/.exec(d);
  if (tagged) {
    return tagged[2] ? `${tagged[1]}-dev.${tagged[2]}.g${tagged[3]}${dirty}` : `${tagged[1]}${dirty ? `-${dirty.slice(1)}` : ''}`;
  }
  return `0.0.0-dev.${count}.g${d}${dirty}`;
}

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const v = version(git('describe', '--tags', '--match', 'v[0-9]*', '--always', '--dirty'), git('rev-list', '--count', 'HEAD'));

rmSync(stage, { recursive: true, force: true });
mkdirSync(path.join(stage, 'types'), { recursive: true });
mkdirSync(path.join(stage, 'playwright'), { recursive: true });
const assets = ['create-ringscope.mjs', 'wasm_exec.js', 'render.js', 'guard.js', 'main.wasm', 'style.css', 'dashboard.css', 'capture.css'];
for (const f of assets) cpSync(path.join(root, 'static', f), path.join(stage, f));
for (const f of ['ringscope.d.ts', 'playwright.d.ts']) cpSync(path.join(root, 'types', f), path.join(stage, 'types', f));
for (const f of readdirSync(path.join(root, 'pkg/playwright'))) cpSync(path.join(root, 'pkg/playwright', f), path.join(stage, 'playwright', f));
cpSync(path.join(root, 'pkg/README.md'), path.join(stage, 'README.md'));

const pkg = {
  name: 'ringscope',
  version: v,
  description: 'See GPU megakernels run: an embeddable WebGPU ring-buffer dashboard (Go WebAssembly), its TypeScript types and a Playwright kit',
  type: 'module',
  main: './create-ringscope.mjs',
  types: './types/ringscope.d.ts',
  exports: {
    '.': { types: './types/ringscope.d.ts', default: './create-ringscope.mjs' },
    './playwright': { types: './types/playwright.d.ts', default: './playwright/index.mjs' },
    './main.wasm': './main.wasm',
    './wasm_exec.js': './wasm_exec.js',
    './render.js': './render.js',
    './guard.js': './guard.js',
    './style.css': './style.css',
    './dashboard.css': './dashboard.css',
    './capture.css': './capture.css',
    './package.json': './package.json',
  },
  files: [...assets, 'types/', 'playwright/', 'README.md'],
  sideEffects: ['./wasm_exec.js', './render.js', './guard.js'],
  peerDependencies: { '@playwright/test': '>=1.40' },
  peerDependenciesMeta: { '@playwright/test': { optional: true } },
  license: 'SEE LICENSE IN README.md',
};
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
const out = execFileSync('npm', ['pack', '--pack-destination', dist, '--json'], { cwd: stage, encoding: 'utf8' });
const [packed] = JSON.parse(out);
console.log(`dist/${packed.filename}: ${packed.size} bytes, ${packed.entryCount} files, version ${v}`);
