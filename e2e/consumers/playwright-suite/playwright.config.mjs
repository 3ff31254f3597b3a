import { defineConfig } from '@playwright/test';

const port = Number(process.env.APP_PORT || 18600);
export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  retries: 0,
  workers: 1,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--enable-unsafe-webgpu'] },
  },
  webServer: { command: `node server.mjs ${port}`, url: `http://127.0.0.1:${port}/`, reuseExistingServer: false },
});
