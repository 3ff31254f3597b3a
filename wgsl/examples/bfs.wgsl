// One item per chunk of a vertex's edges: vertex v = args[0] at distance
// args[1] from the root, its edges args[3] … args[3] + args[4] − 1 (clipped
// to its list). The data binding is the graph in CSR: row offsets
// (vertices + 1 words), then the neighbour lists. A neighbour u whose
// distance this item lowers (atomicMin on dist, the host's 0xFFFFFFFF =
// unreached) is spawned at distance + 1, one item per args[4] of its
// edges, chunk c into partition (u + c) mod 5, for tenant args[2]: one
// generation per BFS level, made on the GPU, and a hub's edges spread
// over many lanes. visits counts each vertex's runs (by the chunk at its
// first edge); lost counts refused spawns (the ring was too small).
fn bfs(slot: u32, args: Args) -> Outcome {
    let v = args[0];
    let n = arrayLength(&dist);
    if (v >= n || n >= data_words() || args[4] == 0u) {
        return user_fault(1u);
    }
    if (args[3] == data[v]) {
        atomicAdd(&visits[v], 1u);
    }
    let next = args[1] + 1u;
    let cols = n + 1u;
    let last = min(min(data[v + 1u], args[3] + args[4]), data_words() - cols);
    for (var j = args[3]; j < last; j++) {
        let u = data[cols + j];
        if (u < n && atomicMin(&dist[u], next) > next) {
            spawn_vertex(u, next, args);
        }
    }
    return done();
}

// spawn_vertex spawns vertex u at distance d: one item per args[4] edges
// (one for a vertex of none).
fn spawn_vertex(u: u32, d: u32, args: Args) {
    var a = args;
    a[0] = u;
    a[1] = d;
    let end = data[u + 1u];
    var c = 0u;
    for (var j = data[u]; c == 0u || j < end; j += args[4]) {
        a[3] = j;
        if (!spawn(16u, args[2], (u + c) % 5u, a)) {
            atomicAdd(&lost[0], 1u);
        }
        c++;
    }
}
