// Package loghist is a fixed-bucket log-linear histogram of non-negative
// values (queue waits in milliseconds): Add costs a few bit operations and
// no allocation, and quantiles come from the buckets with a bounded
// relative error.
//
// Buckets follow the float64 encoding: one octave [2^e, 2^(e+1)) per
// exponent from MinExp to MaxExp−1, split into SubBuckets equal parts by
// the top mantissa bits. A bucket is at most 1/SubBuckets of its lower
// bound wide, and a quantile reports its bucket's midpoint, clamped to the
// smallest and largest values added, so a reported quantile is within
// RelError (1/(2·SubBuckets), 3.125 %) of a value the quantile's rank
// falls on, for values from 2^MinExp up to 2^MaxExp. Smaller values share
// bucket 0 (an absolute error below 2^MinExp), larger ones the last bucket
// (the exact maximum is kept beside the counts).
//
// It is a leaf: it imports only the standard library, so both the host
// publisher (wgsl/host) and the decoders may use it.
package loghist
