package runsort

// Func sorts s stably by cmp (negative when a sorts before b) and returns
// buf, grown when it had to be, for the next call: pass the same buffer
// each time and a steady workload sorts without allocating. buf's contents
// are scratch.
//
// Each pass merges pairs of neighbouring runs, halving their number; a
// pass that found two runs or fewer leaves s sorted.
func Func[T any](s, buf []T, cmp func(a, b T) int) []T {
	for {
		runs := 0
		for lo := 0; lo < len(s); {
			mid := runEnd(s, lo, cmp)
			runs++
			if mid == len(s) {
				break
			}
			hi := runEnd(s, mid, cmp)
			runs++
			buf = merge(s[lo:hi], mid-lo, buf, cmp)
			lo = hi
		}
		if runs <= 2 {
			return buf
		}
	}
}

// runEnd returns the end of the ascending run of s that starts at lo.
func runEnd[T any](s []T, lo int, cmp func(a, b T) int) int {
	hi := lo + 1
	for hi < len(s) && cmp(s[hi-1], s[hi]) <= 0 {
		hi++
	}
	return hi
}

// merge merges the sorted runs s[:mid] and s[mid:] in place, copying the
// first into buf. Writing never overtakes reading the second run: after i
// elements of the first and j of the second, the write is at i+j < mid+j.
// On a tie the first run's element goes first, which keeps the sort stable.
func merge[T any](s []T, mid int, buf []T, cmp func(a, b T) int) []T {
	if cap(buf) < mid {
		buf = make([]T, 0, len(s)) // room for any later run of this pass
	}
	first := buf[:mid]
	copy(first, s[:mid])
	i, j, w := 0, mid, 0
	for i < len(first) && j < len(s) {
		if cmp(s[j], first[i]) < 0 {
			s[w] = s[j]
			j++
		} else {
			s[w] = first[i]
			i++
		}
		w++
	}
	copy(s[w:], first[i:])
	return buf
}
