// Gives Node a WebGPU implementation (Dawn, npm "webgpu") and a navigator, so
// Go wasm tests reach a real adapter: SwiftShader on CPU machines, the GPU
// where there is one. Loaded with NODE_OPTIONS=--import=<this file>.
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
// Keep the GPU object referenced for the whole run: if V8 collects it the
// process crashes at random (shared/docs/BROWSER.md).
globalThis.__ringscopeGPU = create([]);
globalThis.navigator = { gpu: globalThis.__ringscopeGPU };
