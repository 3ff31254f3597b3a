// TypeScript declarations of ringscope's JavaScript API: createRingscope
// (static/create-ringscope.mjs), the methods of an instance (the same as
// window.ringscope's on the project's own page), and ringscope/playwright.
// The options interfaces are docs/OPTIONS.md's tables, key for key
// (wasm/api/options_test.go keeps them equal); results name the fields the
// docs describe and leave the rest open. e2e/types/ compiles a consumer
// against them with tsc --noEmit --strict (make test-types).

/** A word of a result whose fields are open (decoded telemetry). */
export type Fields = { [field: string]: unknown };

export type Readback = 'full' | 'summary' | 'auto';
export type Bytes = Uint8Array | ArrayBuffer;

/** createRingscope's options (docs/OPTIONS.md, "createRingscope"). */
export interface CreateOptions {
  container?: Element | null;
  wasmURL?: string | URL;
  open?: OpenOptions;
  attach?: AttachOptions;
  autostart?: boolean;
  global?: boolean | string;
  query?: string | URLSearchParams | true;
}

/** A user opcode (docs/OPCODES.md). */
export interface OpcodeOptions {
  opcode: number;
  name: string;
  wgsl: string;
}

/** A user storage buffer (docs/OPCODES.md). */
export interface BufferOptions {
  name: string;
  access?: 'read' | 'read_write';
  element?: string;
  size?: number;
  bytes?: Bytes;
  words?: number[];
}

export interface OpenOptions {
  slots?: number;
  tenants?: number;
  masks?: number[];
  observable?: number;
  logCapacity?: number;
  budget?: number;
  workgroupSize?: 64 | 128 | 256;
  workerGroups?: number;
  memoryBudgetBytes?: number;
  watchdogIntervals?: number;
  submissionTimeoutMs?: number;
  readback?: Readback;
  windowOpcodes?: number[];
  opcodes?: OpcodeOptions[];
  buffers?: BufferOptions[];
  data?: Bytes | number[];
  trace?: TraceOptions;
}

/** open's trace: every claimed slot's record (docs/TRACE.md). */
export interface TraceOptions {
  capacity?: number;
}

export interface AttachOptions {
  device: GPUDevice;
  control: GPUBuffer;
  ring: GPUBuffer;
  log?: GPUBuffer;
  slots?: number;
  windowOpcodes?: number[];
  readback?: Readback;
  budget?: number;
  submissionTimeoutMs?: number;
  /** The host's trace buffer (docs/TRACE.md §8): the timeline panel shows its records. */
  trace?: GPUBuffer;
  /** Records of trace read (default: all it holds). */
  traceCapacity?: number;
}

export interface DrainOptions {
  maxSubmissions?: number;
}

export interface PublishOptions {
  allowUnknownOpcodes?: boolean;
}

export interface SnapshotOptions {
  slots?: boolean;
  trace?: boolean;
}

export interface MountOptions {
  panels?: string[];
}

export interface DecodeOptions {
  windowOpcodes?: number[];
  log?: Bytes;
}

export interface ExportMetricsOptions {
  format?: 'openmetrics' | 'prometheus';
}

export interface PushMetricsOptions {
  job?: string;
  instance?: string;
}

export interface ExampleOptions {
  seed?: number;
}

/** importCapture's object form: {bytes, name} for a capture file, {control, ring, name} for a vyre dump. */
export interface ImportOptions {
  bytes?: Bytes;
  control?: Bytes | ArrayBufferView;
  ring?: Bytes | ArrayBufferView;
  name?: string;
}

export interface WorkloadOptions {
  opcode: number;
  count: number;
  tenants?: number;
  priorities?: number;
  args?: (number | string)[];
}

/** One work item of publish. */
export interface Item {
  opcode: number;
  tenant?: number;
  priority?: number;
  args?: number[];
}

/** A cause of a diagnosis (docs/DIAGNOSIS.md). */
export interface Cause {
  kind: string;
  subject: { tenant?: number; priority?: number; opcode?: number; name?: string };
  evidence: { [fact: string]: number | string };
  fix: string;
  sinceMs: number;
}

/** The verdict every view shows (docs/DIAGNOSIS.md). */
export interface Diagnosis {
  health: string;
  causes: Cause[];
}

export interface LogRecord {
  format: number;
  slot: number;
  a: number;
  b: number;
  name: string;
  text: string;
}

export interface Log {
  records: LogRecord[];
  [field: string]: unknown;
}

export interface OpenResult {
  generation: number;
  slots: number;
  partitions: number[];
  watchdogIntervals: number;
}

export interface DrainResult {
  report: Fields;
  telemetry: Fields & { control: Fields & { doneCount: number; faults: number }; occupancy: Fields };
  counters: Fields;
  observable: number[];
  log: Log | null;
  diagnosis: Diagnosis | null;
  outcome: 'empty' | 'no-progress' | 'max-submissions' | 'lost';
  submissions: number;
  stuck: Fields;
  error: string;
  trace: Trace | null;
  spawn: Spawn | null;
}

/** A spawning kernel's spawn state (docs/PROTOCOL-SPAWN.md §2); null for a ring that does not spawn. */
export interface Spawn {
  generations: number;
  spawned: number;
  refusedFull: number;
  refusedBad: number;
  /** Items spawned per opcode, opcodes 0…31. */
  byOpcode: number[];
  /** The newest generations, oldest first: the frontier each drained (claimed), spawned and refused. */
  history: { pass: number; claimed: number; spawned: number; refused: number }[];
}

/** A traced ring's records (docs/TRACE.md §5). */
export interface Trace {
  axis: 'ns' | 'logical';
  capacity: number;
  overflow: number;
  evicted: number;
  passes: { firstTicket: number; endTicket: number; begin: number; end: number; timed: boolean; budgetSpent: boolean }[];
  records: TraceRecord[];
}

export interface TraceRecord {
  slot: number;
  opcode: number;
  name: string;
  tenant: number;
  workgroup: number;
  lane: number;
  startTicket: number;
  endTicket: number;
  start: number;
  end: number;
  status: string;
  fault: string;
  parent: number;
}

export interface Snapshot {
  telemetry: (Fields & { control: Fields & { doneCount: number; faults: number }; slots?: Fields[] }) | null;
  counters: Fields | null;
  observable: number[];
  log: Log | null;
  report: Fields | null;
  published: number;
  pending: number;
  running: boolean;
  watchdog: Fields | null;
  diagnosis: Diagnosis | null;
  waits: Fields | null;
  stale: boolean;
  recoveries: number;
  lastLoss: Fields | null;
  readback: string;
  ringReads: number;
  lastBytesReadBack: number;
  trace: Trace | null;
  spawn: Spawn | null;
}

export interface AttachInfo extends Fields {
  state: string;
  readback: string;
  slots: number;
  frames: number;
}

/**
 * What subscribe's callback gets per live frame, and again (the same seq)
 * when a loss or a stuck submission gives the last frame a new verdict.
 */
export interface FrameSummary extends Fields {
  seq: number;
  doneCount: number;
  queueDepth: number;
  /** The verdict: idle | progressing | degraded | stalled | lost. */
  health: string;
  /** Its cause kinds, most explanatory first (empty: none). */
  causes: string[];
}

export interface PushResult {
  url: string;
  status: number;
  bytes: number;
}

/** The ringscope API: an instance of createRingscope, or window.ringscope. */
export interface Ringscope {
  /** Settles once the page knows whether it can run (rejects without WebGPU). */
  readonly ready: Promise<void>;
  /** The panel names mount accepts. */
  readonly panels: string[];

  open(options?: OpenOptions): Promise<OpenResult>;
  publish(items: Item[], options?: PublishOptions): Promise<number>;
  setTenantMask(tenant: number, on: boolean): Promise<unknown>;
  drain(options?: DrainOptions): Promise<DrainResult>;
  snapshot(options?: SnapshotOptions): Promise<Snapshot>;
  status(): Promise<Fields>;

  start(): Promise<{ running: boolean }>;
  stop(): Promise<{ running: boolean }>;
  step(): Promise<Fields>;
  setShutdown(on: boolean): Promise<unknown>;
  setIOService(on: boolean): Promise<unknown>;

  attach(options: AttachOptions): Promise<AttachInfo>;
  detach(): Promise<AttachInfo>;
  attachInfo(): Promise<AttachInfo>;

  mount(element: Element, options?: MountOptions): Promise<Element>;
  subscribe(callback: (frame: FrameSummary) => void): () => void;

  decode(control: Bytes | ArrayBufferView, ring: Bytes | ArrayBufferView, options?: DecodeOptions): Promise<Fields>;
  exportCapture(): Promise<Uint8Array>;
  importCapture(capture: Bytes | ImportOptions): Promise<Fields>;
  exportTrace(): Promise<string>;
  exportMetrics(options?: ExportMetricsOptions): Promise<string>;
  captureInfo(): Promise<Fields>;
  captureFrame(index: number): Promise<Fields>;
  setRecording(on: boolean): Promise<unknown>;
  replay(index: number): Promise<unknown>;
  live(): Promise<unknown>;
  pushMetrics(url: string, options?: PushMetricsOptions): Promise<PushResult>;

  readBuffer(name: string): Promise<Uint8Array>;
  examples(): Promise<Fields[]>;
  example(name: string, options?: ExampleOptions): Promise<Fields>;
  publishWorkload(workload: WorkloadOptions): Promise<number>;
  checkExample(name: string): Promise<Fields>;
}

/** An instance of createRingscope: the API, and dispose. */
export interface RingscopeInstance extends Ringscope {
  /**
   * Ends the instance: live loop, attachment, GPU buffers, its own device,
   * listeners, js.Funcs, its Go program and memory, its dashboard.
   */
  dispose(): Promise<void>;
}

export function createRingscope(options?: CreateOptions): Promise<RingscopeInstance>;
export default createRingscope;
