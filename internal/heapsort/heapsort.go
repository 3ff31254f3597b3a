package heapsort

import "cmp"

// Func sorts s in place by less, in O(n log n) time with no allocation.
// It is not stable: equal elements may change order.
func Func[T any](s []T, less func(a, b T) bool) {
	n := len(s)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(s, i, n, less)
	}
	for end := n - 1; end > 0; end-- {
		s[0], s[end] = s[end], s[0]
		siftDown(s, 0, end, less)
	}
}

// siftDown moves s[root] down the max-heap s[:n] until both children are
// not greater than it.
func siftDown[T any](s []T, root, n int, less func(a, b T) bool) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && less(s[child], s[child+1]) {
			child++
		}
		if !less(s[root], s[child]) {
			return
		}
		s[root], s[child] = s[child], s[root]
		root = child
	}
}

// Ordered sorts s in ascending order.
func Ordered[T cmp.Ordered](s []T) { Func(s, cmp.Less[T]) }
