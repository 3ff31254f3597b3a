package render

import "github.com/vugu/vugu"

// lifecycle calls Rendered on the components of each render. A component
// is known by its pointer; one missing from a render is forgotten, so its
// next appearance is First again.
type lifecycle struct {
	pass uint8
	seen map[vugu.Builder]uint8 // component → the last pass it was in
}

// rendered is the vugu.RenderedCtx of one call.
type rendered struct {
	env   vugu.EventEnv
	first bool
}

func (r *rendered) EventEnv() vugu.EventEnv { return r.env }
func (r *rendered) First() bool             { return r.first }

type renderer0 interface{ Rendered() }
type renderer1 interface{ Rendered(vugu.RenderedCtx) }

// run calls Rendered on every component under br's root, parents before
// their children.
func (l *lifecycle) run(br *vugu.BuildResults, env vugu.EventEnv) {
	if l.seen == nil {
		l.seen = make(map[vugu.Builder]uint8)
	}
	l.pass++
	l.visit(br, br.Out, env, 0)
	for c, pass := range l.seen {
		if pass != l.pass {
			delete(l.seen, c)
		}
	}
}

func (l *lifecycle) visit(br *vugu.BuildResults, bo *vugu.BuildOut, env vugu.EventEnv, depth int) {
	if bo == nil || depth > maxDepth {
		return
	}
	for _, c := range bo.Components {
		last, ok := l.seen[c]
		if ok && last == l.pass {
			continue // listed twice
		}
		l.seen[c] = l.pass
		switch c := c.(type) {
		case renderer0:
			c.Rendered()
		case renderer1:
			c.Rendered(&rendered{env: env, first: !ok})
		}
		l.visit(br, br.ResultFor(c), env, depth+1)
	}
}
