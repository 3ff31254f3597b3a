// bench/chromium.mjs: what the bench scripts share to run the page in
// headless Chromium: the flags, the browser and the real server.
//
// CHROMIUM names the browser (default /usr/bin/chromium),
// RINGSCOPE_CHROMIUM_ARGS adds flags (a GPU machine needs Vulkan on:
// bench/gpu-chromium.sh), RINGSCOPE_SERVER names a prebuilt server for a
// machine without Go (otherwise `go run .`), as in e2e/playwright.config.mjs.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { chromium } = createRequire(path.join(root, 'e2e', 'package.json'))('@playwright/test');

// The flags every run needs on these machines (e2e/playwright.config.mjs
// says why), then RINGSCOPE_CHROMIUM_ARGS.
export const extraArgs = (process.env.RINGSCOPE_CHROMIUM_ARGS || '').split(' ').filter(Boolean);
export const launchArgs = ['--no-sandbox', '--disable-quic', '--disable-component-update', '--disable-sync',
  '--disable-background-networking', '--no-first-run', '--enable-unsafe-webgpu', ...extraArgs];

// launch starts headless Chromium with launchArgs.
export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: launchArgs });
}

// serve starts the real server on dir at port and resolves, once it
// answers, to its url and a stop function (which stops go run's child too).
export async function serve(dir, port) {
  const bin = process.env.RINGSCOPE_SERVER;
  const argv = ['-addr', `127.0.0.1:${port}`, '-dir', path.resolve(root, dir)];
  const proc = spawn(bin || 'go', bin ? argv : ['run', '.', ...argv], { cwd: root, stdio: 'ignore', detached: true });
  const stop = () => {
    try {
      process.kill(-proc.pid);
    } catch {}
  };
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 600; i++) { // go run may compile first
    try {
      if ((await fetch(url)).ok) return { url, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`bench: the server on ${dir} did not answer at ${url}`);
}
