// Declarations of ringscope/playwright (pkg/playwright): the fixture and
// the matchers.
import type { Expect, TestType, TestInfo, PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions, Page } from '@playwright/test';
import type { AttachOptions, Diagnosis, Snapshot, SnapshotOptions } from './ringscope';

export interface RingscopeLabels {
  control: string;
  ring: string;
  log?: string;
}

/** The handle the ringscope fixture gives a test. */
export declare class RingscopeHandle {
  /**
   * The fixture passes its testInfo (the default waits then end inside the
   * test's timeout, with their own message) and ringscopeLabels.
   */
  constructor(page: Page, options?: { testInfo?: TestInfo; labels?: RingscopeLabels });
  readonly page: Page;
  /**
   * Attaches to the buffers found by label, or handed over with
   * window.ringscopeKit.use; attaching again replaces (disposes) the
   * instance before. `wait.timeout`: ms (>= 0) to wait for the buffers,
   * 30,000 by default, cut to what the test's timeout leaves.
   */
  attach(options?: Omit<AttachOptions, 'device' | 'control' | 'ring' | 'log'>, wait?: { timeout?: number }): Promise<void>;
  /**
   * The snapshot once the attachment has read `frames` (a whole number >= 1,
   * 1 by default) more frames since the call; rejects after `timeout` ms
   * (>= 0; 30,000 by default, cut to what the test's timeout leaves) saying
   * how many it saw, and at once when no frame can come. An unknown option,
   * or a NaN or negative one, is rejected by name; `slots` and `trace` are the
   * instance's own snapshot options, passed on.
   */
  snapshot(options?: { frames?: number; timeout?: number } & SnapshotOptions): Promise<Snapshot>;
  /** Disposes the attached instance; attach() may attach again. */
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

/**
 * The matchers. `within` is ms (a finite number >= 0); an unknown option
 * (Playwright's `timeout` included) is rejected by name. With no frame read
 * (the attachment ended, or none came in 5 s) every matcher fails, under
 * `.not` too.
 */
export interface RingscopeMatchers {
  /** The diagnosis stays idle or progressing, with no cause, for `within` ms (6,000). */
  toBeHealthy(handle: RingscopeHandle, options?: { within?: number }): Promise<MatcherResult>;
  toHaveNoFaults(handle: RingscopeHandle): Promise<MatcherResult>;
  toDrainExactlyOnce(handle: RingscopeHandle): Promise<MatcherResult>;
  /** DONE_COUNT moves within `within` ms (2,000) while work is queued, and the verdict is not stalled. */
  toNotStall(handle: RingscopeHandle, options?: { within?: number }): Promise<MatcherResult>;
}

export declare const matchers: RingscopeMatchers;
export declare function describe(d: Diagnosis | null | undefined): string;
/** The expect of the kit: Playwright's, with the ringscope matchers. */
export type RingscopeExpect = Expect<RingscopeMatchers>;
type Fixtures = TestType<PlaywrightTestArgs & PlaywrightTestOptions & RingscopeFixtures, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

/**
 * kit extends your own test and expect with the fixture and the matchers;
 * the fixtures and matchers yours already have stay typed.
 */
export declare function kit<T extends PlaywrightTestArgs & PlaywrightTestOptions, W extends PlaywrightWorkerArgs & PlaywrightWorkerOptions, M = {}>(
  test: TestType<T, W>, expect: Expect<M>): { test: TestType<T & RingscopeFixtures, W>; expect: Expect<M & RingscopeMatchers> };
export declare const test: Fixtures;
export declare const expect: RingscopeExpect;
