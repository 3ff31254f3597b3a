// ringscope/playwright: a fixture and matchers for asserting on your own
// WebGPU app's ring from your own Playwright suite (kit.mjs, pkg/README.md).
//
//   import { test, expect } from 'ringscope/playwright';
//   import { mergeExpects } from '@playwright/test';
//   import { matchers } from 'ringscope/playwright';   // expect.extend(matchers) on yours
import { test as base, expect as baseExpect } from '@playwright/test';
import { kit } from './kit.mjs';

export { kit, matchers, describe, RingscopeHandle } from './kit.mjs';
export const { test, expect } = kit(base, baseExpect);
