package examples

import "math/rand/v2"

// CSR is a directed graph: Offsets (vertices + 1) and the neighbour
// lists, Neighbours[Offsets[v] : Offsets[v+1]] those of v.
type CSR struct {
	Offsets, Neighbours []uint32
}

// Vertices is the graph's vertex count.
func (g CSR) Vertices() int { return len(g.Offsets) - 1 }

// Words is the graph as the BFS example's data binding holds it: the
// offsets, then the neighbours (at least one word past the offsets).
func (g CSR) Words() []uint32 {
	w := append(append(make([]uint32, 0, len(g.Offsets)+len(g.Neighbours)+1), g.Offsets...), g.Neighbours...)
	if len(g.Neighbours) == 0 {
		w = append(w, 0)
	}
	return w
}

// RMAT is a recursive-matrix graph of 2^scale vertices and edges directed
// edges (Chakrabarti et al.): each edge picks a quadrant of the adjacency
// matrix per level with probabilities a, b, c and 1 − a − b − c. Seeded:
// the same arguments, the same graph.
func RMAT(scale uint, edges int, a, b, c float64, seed uint64) CSR {
	n := 1 << scale
	rng := rand.New(rand.NewPCG(seed, 0x524D4154)) // "RMAT"
	src, dst := make([]uint32, edges), make([]uint32, edges)
	deg := make([]uint32, n+1)
	for e := range edges {
		var u, v uint32
		for bit := uint(0); bit < scale; bit++ {
			r := rng.Float64()
			switch {
			case r < a:
			case r < a+b:
				v |= 1 << bit
			case r < a+b+c:
				u |= 1 << bit
			default:
				u |= 1 << bit
				v |= 1 << bit
			}
		}
		src[e], dst[e] = u, v
		deg[u+1]++
	}
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	g := CSR{Offsets: append([]uint32(nil), deg...), Neighbours: make([]uint32, edges)}
	next := deg[:n]
	for e := range edges {
		g.Neighbours[next[src[e]]] = dst[e]
		next[src[e]]++
	}
	return g
}

// Unreached is the distance of a vertex BFS does not reach.
const Unreached = 0xFFFFFFFF

// BFS is the distances from root, Unreached where none.
func (g CSR) BFS(root uint32) []uint32 {
	dist := make([]uint32, g.Vertices())
	for i := range dist {
		dist[i] = Unreached
	}
	dist[root] = 0
	frontier := []uint32{root}
	for d := uint32(1); len(frontier) > 0; d++ {
		var next []uint32
		for _, v := range frontier {
			for _, u := range g.Neighbours[g.Offsets[v]:g.Offsets[v+1]] {
				if dist[u] == Unreached {
					dist[u] = d
					next = append(next, u)
				}
			}
		}
		frontier = next
	}
	return dist
}
