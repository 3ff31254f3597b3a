// Declarations of ringscope/playwright (pkg/playwright): the fixture and
// the matchers.
import type { Expect, TestType, PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions, Page } from '@playwright/test';
import type { AttachOptions, Diagnosis, Snapshot } from './ringscope';

export interface RingscopeLabels {
  control: string;
  ring: string;
  log?: string;
}

/** The handle the ringscope fixture gives a test. */
export declare class RingscopeHandle {
  constructor(page: Page);
  readonly page: Page;
  /** Attaches to the buffers found by label, or handed over with window.ringscopeKit.use. */
  attach(options?: Omit<AttachOptions, 'device' | 'control' | 'ring' | 'log'>, wait?: { timeout?: number }): Promise<void>;
  /**
   * The snapshot once the attachment has read `frames` more frames since the
   * call (1 by default); rejects after `timeout` ms (30,000) saying how many it saw.
   */
  snapshot(options?: { frames?: number; timeout?: number }): Promise<Snapshot>;
  dispose(): Promise<void>;
}

export interface RingscopeFixtures {
  ringscope: RingscopeHandle;
  /** Where ringscope's files are (the package's root). */
  ringscopeAssets: string;
  /** The labels the init script looks for. */
  ringscopeLabels: RingscopeLabels;
}

type MatcherResult = { pass: boolean; message: () => string; name: string };

export interface RingscopeMatchers {
  toBeHealthy(handle: RingscopeHandle, options?: { within?: number }): Promise<MatcherResult>;
  toHaveNoFaults(handle: RingscopeHandle): Promise<MatcherResult>;
  toDrainExactlyOnce(handle: RingscopeHandle): Promise<MatcherResult>;
  toNotStall(handle: RingscopeHandle, options?: { within?: number }): Promise<MatcherResult>;
}

export declare const matchers: RingscopeMatchers;
export declare function describe(d: Diagnosis | null): string;
/** The expect of the kit: Playwright's, with the ringscope matchers. */
export type RingscopeExpect = Expect<RingscopeMatchers>;
type Fixtures = TestType<PlaywrightTestArgs & PlaywrightTestOptions & RingscopeFixtures, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

/** kit extends your own test and expect with the fixture and the matchers. */
export declare function kit(test: TestType<PlaywrightTestArgs & PlaywrightTestOptions, PlaywrightWorkerArgs & PlaywrightWorkerOptions>,
  expect: Expect): { test: Fixtures; expect: RingscopeExpect };
export declare const test: Fixtures;
export declare const expect: RingscopeExpect;
