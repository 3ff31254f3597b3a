package render

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// simDOM is a Go twin of static/render.js's apply over a toy DOM, so the
// renderer's ops can be checked natively: a test renders, applies the ops
// here and compares the DOM with the HTML it expects.
type simDOM struct {
	mount *simNode // the page's mount element, before the first ADOPT
	root  *simNode
	nodes map[uint32]*simNode
	syms  map[uint32]string
	ops   map[byte]int // ops applied, by code, in the last apply (symbol definitions aside)
}

type simNode struct {
	tag, ns, text string // text: a text node's or comment's data
	comment       bool
	attrs         map[string]string
	children      []*simNode
	parent        *simNode
	listen        map[uint32]string // slot → event type
}

func newSimDOM() *simDOM {
	mount := &simNode{tag: "div", attrs: map[string]string{"id": "app"}}
	mount.append(&simNode{text: "loading"})
	return &simDOM{mount: mount, nodes: map[uint32]*simNode{}, syms: map[uint32]string{}}
}

func (n *simNode) append(c *simNode) {
	c.detach()
	c.parent = n
	n.children = append(n.children, c)
}

func (n *simNode) detach() {
	if p := n.parent; p != nil {
		i := slices.Index(p.children, n)
		p.children = slices.Delete(p.children, i, i+1)
		n.parent = nil
	}
}

func (n *simNode) isElement() bool { return n.tag != "" }

// html serialises n with its attributes sorted.
func (n *simNode) html() string {
	if !n.isElement() {
		if n.comment {
			return "<!--" + n.text + "-->"
		}
		return n.text
	}
	var b strings.Builder
	b.WriteString("<" + n.tag)
	keys := make([]string, 0, len(n.attrs))
	for k := range n.attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%q", k, n.attrs[k])
	}
	b.WriteString(">")
	for _, c := range n.children {
		b.WriteString(c.html())
	}
	b.WriteString("</" + n.tag + ">")
	return b.String()
}

// apply runs ops as render.js does and returns the CALLBACK nodes.
func (d *simDOM) apply(t *testing.T, b []byte) []*simNode {
	t.Helper()
	pos := 0
	u32 := func() uint32 { v := binary.LittleEndian.Uint32(b[pos:]); pos += 4; return v }
	str := func() string { n := int(u32()); s := string(b[pos : pos+n]); pos += n; return s }
	sym := func() string {
		s, ok := d.syms[u32()]
		require.True(t, ok, "undefined symbol")
		return s
	}
	node := func() *simNode {
		id := u32()
		n, ok := d.nodes[id]
		require.True(t, ok, "no node %d", id)
		return n
	}
	d.ops = map[byte]int{}
	var back []*simNode
	for {
		op := b[pos]
		pos++
		if op != opSym {
			d.ops[op]++
		}
		switch op {
		case opEnd:
			require.Equal(t, len(b), pos, "END before the buffer's end")
			return back
		case opSym:
			n := u32()
			d.syms[n] = str()
		case opClearSyms:
			d.syms = map[uint32]string{}
		case opAdopt:
			id, _, tag, _ := u32(), str(), sym(), sym()
			el := d.root
			if el == nil {
				el = d.mount
			}
			if el.tag != tag {
				el = &simNode{tag: tag}
			}
			el.attrs, el.children = map[string]string{}, nil
			d.root, d.nodes = el, map[uint32]*simNode{id: el}
		case opElement:
			id := u32()
			d.nodes[id] = &simNode{tag: sym(), attrs: map[string]string{}}
		case opElementNS:
			id, tag := u32(), sym()
			d.nodes[id] = &simNode{tag: tag, ns: sym(), attrs: map[string]string{}}
		case opText:
			id := u32()
			d.nodes[id] = &simNode{text: str()}
		case opComment:
			id := u32()
			d.nodes[id] = &simNode{text: str(), comment: true}
		case opSetAttr:
			el, k := node(), sym()
			el.attrs[k] = str()
		case opSetAttrNS:
			el, _, k := node(), sym(), sym()
			el.attrs[k] = str()
		case opDelAttr:
			el, k := node(), sym()
			delete(el.attrs, k)
		case opDelAttrNS:
			el, _, k := node(), sym(), sym()
			delete(el.attrs, k)
		case opContent:
			el := node()
			el.children = nil
			if s := str(); s != "" {
				el.append(&simNode{text: s})
			}
		case opSetText:
			n := node()
			n.text = str()
		case opAppend:
			p, c := node(), node()
			p.append(c)
		case opInsert:
			p, c, before := node(), node(), node()
			c.detach()
			i := slices.Index(p.children, before)
			require.GreaterOrEqual(t, i, 0, "INSERT before a node that is not a child")
			c.parent = p
			p.children = slices.Insert(p.children, i, c)
		case opRemove:
			id := u32()
			d.nodes[id].detach()
			delete(d.nodes, id)
		case opFree:
			delete(d.nodes, u32())
		case opListen:
			el, slot, typ, _ := node(), u32(), sym(), u32()
			if el.listen == nil {
				el.listen = map[uint32]string{}
			}
			el.listen[slot] = typ
		case opUnlisten:
			el, slot := node(), u32()
			delete(el.listen, slot)
		case opCallback:
			back = append(back, node())
		case opProp:
			el, k := node(), sym()
			el.attrs["."+k] = str()
		default:
			t.Fatalf("unknown op %d at %d", op, pos-1)
		}
	}
}
