package domrender

import (
	"encoding/binary"
	"hash/maphash"

	"github.com/vugu/vugu"
)

// Upstream Vugu writes every node of the tree on every render, and the
// helper reads and compares every one of them. Most of a dashboard frame is
// unchanged: titles, labels, rows whose numbers did not move. The renderer
// therefore keeps a mirror of the DOM it wrote (shadowNode, one per DOM
// node, reused render after render) and hashes each element's subtree as
// this render would write it (hashSubtrees). An element whose hash equals
// the one its mirror was last synced with is still selected (the helper's
// cursor must pass over it) but nothing else of it is written.
//
// The mirror is exact because this renderer is the only writer of the DOM
// under the mount point, and it follows every way the helper changes it:
// an element of another tag replaces the node (reset); moving to the
// parent removes the children after the last one written (keepChildren);
// innerHTML and templates make children the mirror does not follow
// (forgetChildren, after which they sync in full). Subtrees with event
// listeners, JS properties or vg-js-create/populate callbacks are synced on
// every render as upstream does (the handlers of this render's closures
// must be registered), though their unchanged children are still skipped.

// shadowNode is what one DOM node holds since the last render.
type shadowNode struct {
	tag, ns  string // element tag and namespace; "#text" or "#comment" for those
	hash     uint64 // the subtree hash it was synced with; 0: sync it in full
	children []*shadowNode
}

// subtreeHash is an element's hash of what syncing its subtree writes, and
// whether that subtree must be synced on every render anyway.
type subtreeHash struct {
	hash    uint64
	dynamic bool
}

// reset records a new node of tag (the helper created or replaced it): it
// has no children and was not synced yet.
func (s *shadowNode) reset(tag, ns string) {
	if s == nil {
		return
	}
	s.tag, s.ns, s.hash = tag, ns, 0
	s.children = s.children[:0]
}

// unchanged reports whether the element s mirrors already holds what n's
// subtree writes.
func (s *shadowNode) unchanged(n *vugu.VGNode, h subtreeHash) bool {
	return s != nil && !h.dynamic && h.hash != 0 && s.hash == h.hash && s.tag == n.Data && s.ns == n.Namespace
}

// synced records that the subtree of hash h was written in full.
func (s *shadowNode) synced(h subtreeHash) {
	if s == nil {
		return
	}
	s.hash = 0
	if !h.dynamic {
		s.hash = h.hash
	}
}

// child returns the mirror of the i-th child (children are asked for in
// order), reusing the mirrors of a longer list the DOM once held.
func (s *shadowNode) child(i int) *shadowNode {
	for len(s.children) <= i {
		n := len(s.children)
		if n == cap(s.children) {
			s.children = append(s.children, &shadowNode{})
			continue
		}
		s.children = s.children[:n+1]
		if s.children[n] == nil {
			s.children[n] = &shadowNode{}
		} else {
			s.children[n].reset("", "")
		}
	}
	return s.children[i]
}

// hasTemplateChild reports whether one of n's children is a template (or
// a component whose root is one), whose children the helper writes as n's
// children: n's children then do not line up with the mirror's.
func hasTemplateChild(br *vugu.BuildResults, n *vugu.VGNode) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		root := c
		for root.Component != nil {
			out := br.ResultFor(root.Component)
			if out == nil || len(out.Out) != 1 {
				break // visitSyncNode reports the error
			}
			root = out.Out[0]
		}
		if root.IsTemplate() {
			return true
		}
	}
	return false
}

// keepChildren records that the DOM keeps only the first n children.
func (s *shadowNode) keepChildren(n int) {
	if s != nil && n < len(s.children) {
		s.children = s.children[:n]
	}
}

// forgetChildren records that the children are not mirrored: s is not
// skipped until it is synced in full again, and neither are they.
func (s *shadowNode) forgetChildren() {
	if s != nil {
		s.hash = 0
		s.children = s.children[:0]
	}
}

var hashSeed = maphash.MakeSeed()

// hashSubtrees fills r.hashes for every element under root, components
// expanded as visitSyncNode expands them.
func (r *JSRenderer) hashSubtrees(br *vugu.BuildResults, root *vugu.VGNode) {
	if r.hashes == nil {
		r.hashes = make(map[*vugu.VGNode]subtreeHash)
	}
	clear(r.hashes)
	r.hashNode(br, root)
}

func (r *JSRenderer) hashNode(br *vugu.BuildResults, n *vugu.VGNode) subtreeHash {
	if n.Component != nil {
		out := br.ResultFor(n.Component)
		if out == nil || len(out.Out) != 1 {
			return subtreeHash{dynamic: true} // visitSyncNode reports the error
		}
		return r.hashNode(br, out.Out[0])
	}
	var h maphash.Hash
	h.SetSeed(hashSeed)
	writeUint(&h, uint64(n.Type))
	writeString(&h, n.Data)
	writeString(&h, n.Namespace)
	for _, a := range n.Attr {
		writeString(&h, a.Namespace)
		writeString(&h, a.Key)
		writeString(&h, a.Val)
	}
	dynamic := len(n.Prop) > 0 || len(n.DOMEventHandlerSpecList) > 0 || n.JSCreateHandler != nil ||
		n.JSPopulateHandler != nil || n.IsTemplate()
	if n.InnerHTML != nil {
		writeUint(&h, 1)
		writeString(&h, *n.InnerHTML)
	} else {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			ch := r.hashNode(br, c)
			writeUint(&h, ch.hash)
			dynamic = dynamic || ch.dynamic
		}
	}
	sh := subtreeHash{hash: h.Sum64() | 1, dynamic: dynamic} // | 1: never 0, "not synced"
	if n.Type == vugu.ElementNode {
		r.hashes[n] = sh
	}
	return sh
}

// writeString writes s with its length, so that ("ab", "c") and ("a",
// "bc") differ.
func writeString(h *maphash.Hash, s string) {
	writeUint(h, uint64(len(s)))
	h.WriteString(s)
}

func writeUint(h *maphash.Hash, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	h.Write(b[:])
}
