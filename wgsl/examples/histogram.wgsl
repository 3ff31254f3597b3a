// One tile of the data binding per slot: args[0] is the tile's first word,
// args[1] its length. Each word w counts into bin w % bins of hist.
fn histogram(slot: u32, args: Args) -> Outcome {
    let first = args[0];
    let count = args[1];
    if (first > data_words() || count > data_words() - first) {
        return user_fault(1u);
    }
    let bins = arrayLength(&hist);
    for (var i = 0u; i < count; i++) {
        atomicAdd(&hist[data[first + i] % bins], 1u);
    }
    return done();
}
