// One vertex per slot (args[0]): rank_out[v] = sum of rank_in over v's
// neighbours. graph is CSR: row offsets (vertices + 1 words), then the
// neighbour lists from word args[1]. visits counts the runs of each vertex.
fn graph_step(slot: u32, args: Args) -> Outcome {
    let v = args[0];
    let cols = args[1];
    if (v + 1u >= cols || cols > arrayLength(&graph)) {
        return user_fault(2u);
    }
    var sum = 0u;
    for (var j = graph[v]; j < graph[v + 1u]; j++) {
        sum += rank_in[graph[cols + j]];
    }
    rank_out[v] = sum;
    atomicAdd(&visits[v], 1u);
    return done();
}
