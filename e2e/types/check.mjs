// make test-types: the declarations compile a typed consumer under
// tsc --noEmit --strict, and they bite: a consumer passing a wrong option
// (wrong-option.ts) must fail, naming it. Run from e2e/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));

// consumer.ts uses the library, playwright-consumer.ts the Playwright kit
// (under Node's types, as a test suite compiles).
for (const project of ['tsconfig.json', 'tsconfig.playwright.json']) {
  const ok = spawnSync(tsc, ['-p', project, '--noEmit', '--strict'], { cwd: dir, encoding: 'utf8' });
  if (ok.status !== 0) {
    console.error(`tsc --strict refused the typed consumer of ${project}:\n${ok.stdout}${ok.stderr}`);
    process.exit(1);
  }
}
// The same settings (tsconfig.wrong.json extends it), the wrong consumer.
const bad = spawnSync(tsc, ['-p', 'tsconfig.wrong.json', '--noEmit', '--strict'], { cwd: dir, encoding: 'utf8' });
const out = bad.stdout + bad.stderr;
if (bad.status === 0 || !/'slot' does not exist in type 'OpenOptions'/.test(out)) {
  console.error(`tsc should refuse wrong-option.ts naming "slot" (exit ${bad.status}):\n${out}`);
  process.exit(1);
}
console.log('types: consumer.ts and playwright-consumer.ts compile under --strict; wrong-option.ts is refused:', out.trim().split('\n')[0]);
