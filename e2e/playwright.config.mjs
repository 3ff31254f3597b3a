// Playwright runs the ringscope page in the system Chromium, headless, served
// by the real Go server (go run .. from the repo root). No browser download:
// shared/docs/BROWSER.md.
//
//   cd e2e && npx playwright test            # both projects
//   cd e2e && npx playwright test --project=webgpu
//
// Screenshots and traces land in e2e/test-results (ignored by git).
import { defineConfig } from '@playwright/test';

const port = Number(process.env.RINGSCOPE_E2E_PORT || 18473);
const baseURL = `http://127.0.0.1:${port}`;
// The page the tests load: make e2e-static's copy of static/ whose
// main.wasm has the test hooks (ringscope.__test). The @bench specs
// measure the page a person opens: RINGSCOPE_STATIC=static (bench/run.mjs,
// bench/gpu-chromium.sh).
const staticDir = process.env.RINGSCOPE_STATIC || '.cache/e2e-static';

// Flags every run needs on this closed, GPU-less machine: --no-sandbox (root),
// and no background networking, so Chromium does not stall on the network.
const baseArgs = [
  '--no-sandbox',
  '--disable-quic',
  '--disable-component-update',
  '--disable-sync',
  '--disable-background-networking',
  '--no-first-run',
];

// --enable-unsafe-webgpu alone gives a SwiftShader adapter headless here
// (vendor google, architecture swiftshader, isFallbackAdapter true);
// --use-angle=swiftshader and --enable-features=Vulkan were measured to be
// unnecessary. Without it navigator.gpu exists but requestAdapter() is null.
// RINGSCOPE_CHROMIUM_ARGS adds flags (space-separated) to the WebGPU
// project: a machine with a real GPU needs Vulkan turned on (bench/gpu-chromium.sh).
const extraArgs = (process.env.RINGSCOPE_CHROMIUM_ARGS || '').split(' ').filter(Boolean);
const webgpuArgs = [...baseArgs, '--enable-unsafe-webgpu', ...extraArgs];

const browser = (args) => ({
  browserName: 'chromium',
  headless: true,
  launchOptions: { executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args },
});

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 1 : 2,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  // CI keeps only stdout, so there a screenshot or trace of every test is
  // work nobody can read: it records failures' screenshots alone.
  use: {
    baseURL,
    screenshot: process.env.CI ? 'only-on-failure' : 'on',
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    // Everything not tagged @no-webgpu runs with WebGPU enabled.
    { name: 'webgpu', grepInvert: /@no-webgpu/, use: browser(webgpuArgs) },
    // The same page in a Chromium without --enable-unsafe-webgpu.
    { name: 'no-webgpu', grep: /@no-webgpu/, use: browser(baseArgs) },
  ],
  webServer: {
    // RINGSCOPE_SERVER names a prebuilt server binary, for a machine without
    // Go (bench/gpu-chromium.sh); it serves staticDir all the same.
    command: `${process.env.RINGSCOPE_SERVER || 'go run .'} -addr 127.0.0.1:${port} -dir ${staticDir}`,
    cwd: '..',
    url: `${baseURL}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
