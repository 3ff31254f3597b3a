// warm.wgsl: entry point `warm`, GPU work with no result, run before each
// measured submission (bench/floors_js_test.go): a GPU left idle between
// repetitions drops its clock (an H200 to 345 MHz), and a short measured
// pass then runs at the idle clock. Each lane mixes an integer for
// params.x rounds and stores it only in the impossible case that it ends
// at all ones, so the loop cannot be dropped. Assembled after abi_gen.wgsl.
//
// Bindings (group BIND_GROUP):
//
//   BINDING_CONTROL  sink    storage, read_write  array<u32>, ≥ 1 word
//   BINDING_PARAMS   params  uniform              vec4<u32>: x = rounds
//
// Bounded: params.x rounds per lane.

override WORKGROUP_SIZE_X: u32 = 64u;

@group(BIND_GROUP) @binding(BINDING_CONTROL) var<storage, read_write> sink: array<u32>;
@group(BIND_GROUP) @binding(BINDING_PARAMS) var<uniform> params: vec4<u32>;

@compute @workgroup_size(WORKGROUP_SIZE_X)
fn warm(@builtin(global_invocation_id) gid: vec3<u32>) {
    var x = gid.x;
    for (var i = 0u; i < params.x; i++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13u;
    }
    if (x == 0xFFFFFFFFu) {
        sink[0] = x;
    }
}
