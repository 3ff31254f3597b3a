// Edit distance of two strings over tiles, a 2-D wavefront DAG: tile
// (args[0], args[1]) of args[2] × args[2] cells runs after its upper and
// left neighbours. The data binding holds a (args[5] words) then b
// (args[6] words); dp is the (n + 1) × (m + 1) matrix, its row and column
// 0 set by the host. preds[t] counts the predecessors tile t still waits
// for (the host sets it to its in-degree): the last one to finish spawns
// it, so no tile ever waits. visits counts each tile's runs, and its last
// word the refused spawns.
fn wavefront(slot: u32, args: Args) -> Outcome {
    let ti = args[0];
    let tj = args[1];
    let s = args[2];
    let rows = args[3];
    let cols = args[4];
    let n = args[5];
    let m = args[6];
    let w = m + 1u;
    if (s == 0u || ti >= rows || tj >= cols || rows * cols > arrayLength(&preds) ||
        rows * cols >= arrayLength(&visits) || (n + 1u) * w > arrayLength(&dp) || n + m > data_words()) {
        return user_fault(1u);
    }
    atomicAdd(&visits[ti * cols + tj], 1u);
    for (var i = ti * s + 1u; i <= min(n, ti * s + s); i++) {
        for (var j = tj * s + 1u; j <= min(m, tj * s + s); j++) {
            let sub = dp[(i - 1u) * w + j - 1u] + select(1u, 0u, data[i - 1u] == data[n + j - 1u]);
            dp[i * w + j] = min(sub, min(dp[(i - 1u) * w + j], dp[i * w + j - 1u]) + 1u);
        }
    }
    if (ti + 1u < rows) {
        release_tile(ti + 1u, tj, args);
    }
    if (tj + 1u < cols) {
        release_tile(ti, tj + 1u, args);
    }
    return done();
}

// release_tile is one predecessor of tile (i, j) finishing: the last one
// (atomicSub returns 1) spawns it, for tenant args[7].
fn release_tile(i: u32, j: u32, args: Args) {
    if (atomicSub(&preds[i * args[4] + j], 1u) == 1u) {
        var a = args;
        a[0] = i;
        a[1] = j;
        if (!spawn(16u, args[7], 2u, a)) {
            atomicAdd(&visits[args[3] * args[4]], 1u);
        }
    }
}
