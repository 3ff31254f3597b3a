// bfs_level.wgsl: entry point `bfs_level`, one level of a level-synchronous
// BFS (bench/bfs_js_test.go's baseline): one lane per vertex of the
// frontier; a neighbour whose distance this lane lowers (atomicMin) joins
// the next frontier. The host dispatches one level at a time and reads
// the next frontier's size back between levels.
//
// Bindings (group 0): 0 graph (CSR: vertices + 1 offsets, then the
// neighbours), 1 dist, 2 the frontier, 3 the next frontier, 4 counts:
// [frontier size, next frontier size, level].

@group(0) @binding(0) var<storage, read> graph: array<u32>;
@group(0) @binding(1) var<storage, read_write> dist: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> frontier: array<u32>;
@group(0) @binding(3) var<storage, read_write> next: array<u32>;
@group(0) @binding(4) var<storage, read_write> counts: array<atomic<u32>>;

@compute @workgroup_size(64)
fn bfs_level(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (gid.x >= atomicLoad(&counts[0])) {
        return;
    }
    let v = frontier[gid.x];
    let n = arrayLength(&dist);
    let d = atomicLoad(&counts[2]) + 1u;
    for (var j = graph[v]; j < graph[v + 1u]; j++) {
        let u = graph[n + 1u + j];
        if (atomicMin(&dist[u], d) > d) {
            next[atomicAdd(&counts[1], 1u)] = u;
        }
    }
}
