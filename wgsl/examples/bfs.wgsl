// One vertex per slot: v = args[0] at distance args[1] from the root. The
// data binding is the graph in CSR: row offsets (vertices + 1 words), then
// the neighbour lists. A neighbour u whose distance this item lowers
// (atomicMin on dist, the host's 0xFFFFFFFF = unreached) is spawned at
// distance + 1 into partition u % 5, for tenant args[2]: one generation
// per BFS level, made on the GPU. visits counts each vertex's runs; lost
// counts refused spawns (the ring was too small: the check says so).
fn bfs(slot: u32, args: Args) -> Outcome {
    let v = args[0];
    let n = arrayLength(&dist);
    if (v >= n || n >= data_words()) {
        return user_fault(1u);
    }
    atomicAdd(&visits[v], 1u);
    let next = args[1] + 1u;
    let cols = n + 1u;
    let last = min(data[v + 1u], data_words() - cols);
    for (var j = data[v]; j < last; j++) {
        let u = data[cols + j];
        if (u < n && atomicMin(&dist[u], next) > next) {
            var a = args;
            a[0] = u;
            a[1] = next;
            if (!spawn(16u, args[2], u % 5u, a)) {
                atomicAdd(&lost[0], 1u);
            }
        }
    }
    return done();
}
