package domrender

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vugu/vugu"
)

// The skip is right when it changes nothing: the DOM after each render
// must be the one a renderer without a mirror (every node written) makes.
// The DOM is simDOM, a port of the helper's (static/vugu-render.js)
// instruction semantics; the trees are random, each a random edit of the
// last, so that most of each render is unchanged, as on the dashboard.
func TestSkipWritesTheSameDOMAsAFullSync(t *testing.T) {
	var skipped, written int
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 99))
		skipping, full := newSimRenderer(), newSimRenderer()
		tree := randomTree(rng, 0)
		for step := range 40 {
			skipping.render(t, tree)
			full.r.mount = shadowNode{} // forget: every node is written
			full.render(t, tree)
			require.Equal(t, full.dom.String(), skipping.dom.String(), "seed %d, step %d", seed, step)
			tree = mutate(rng, cloneTree(tree))
		}
		skipped, written = skipped+skipping.bytes, written+full.bytes
	}
	require.Less(t, skipped, written*2/3, "the skip wrote %d instruction bytes, a full sync %d", skipped, written)
}

// The transitions the mirror must follow, each back and forth: a list
// that shrinks and grows again, an element that becomes text and comes
// back, a tag that changes and comes back, innerHTML that comes and goes,
// a template (vg-template: children written as the parent's) that changes.
func TestSkipFollowsEveryTransition(t *testing.T) {
	li := func(s string) *vugu.VGNode { return el("li", []string{"class", "row"}, text(s)) }
	html := func(h string) *vugu.VGNode { n := el("div", nil); n.InnerHTML = &h; return n }
	for name, trees := range map[string][]*vugu.VGNode{
		"shrink and grow":           {el("ul", nil, li("a"), li("b"), li("c")), el("ul", nil, li("a")), el("ul", nil, li("a"), li("b"), li("c"))},
		"element, text, element":    {el("div", nil, li("a"), li("b")), el("div", nil, text("t"), li("b")), el("div", nil, li("a"), li("b"))},
		"tag and back":              {el("div", nil, el("p", []string{"class", "x"}, text("a"))), el("div", nil, el("span", nil)), el("div", nil, el("p", []string{"class", "x"}, text("a")))},
		"innerHTML and back":        {el("div", nil, el("div", nil, li("a"))), el("div", nil, html("<b>a</b>")), el("div", nil, el("div", nil, li("a")))},
		"a listener comes and goes": {el("div", nil, li("a")), el("div", nil, withClick(li("a"))), el("div", nil, li("a"))},
		"a template shrinks and grows": {
			el("ul", nil, li("a"), el("", nil, li("b"), li("c")), li("d")),
			el("ul", nil, li("a"), el("", nil, li("b")), li("d")),
			el("ul", nil, li("a"), el("", nil, li("b"), li("c")), li("d")),
			el("ul", nil, li("a"), li("b"), li("c"), li("d")),
		},
	} {
		skipping, full := newSimRenderer(), newSimRenderer()
		for step, tree := range trees {
			skipping.render(t, tree)
			full.r.mount = shadowNode{}
			full.render(t, tree)
			require.Equal(t, full.dom.String(), skipping.dom.String(), "%s, step %d", name, step)
		}
	}
}

func el(tag string, attrs []string, children ...*vugu.VGNode) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: tag}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attr = append(n.Attr, vugu.VGAttribute{Key: attrs[i], Val: attrs[i+1]})
	}
	for _, c := range children {
		n.AppendChild(c)
	}
	return n
}

func text(s string) *vugu.VGNode { return &vugu.VGNode{Type: vugu.TextNode, Data: s} }

func withClick(n *vugu.VGNode) *vugu.VGNode {
	n.DOMEventHandlerSpecList = []vugu.DOMEventHandlerSpec{{EventType: "click"}}
	return n
}

// A render that changes nothing writes only the selections of the
// top-level children: a fraction of a full render.
func TestUnchangedRenderWritesLittle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := newSimRenderer()
	tree := randomTree(rng, 0)
	s.render(t, tree)
	first := s.bytes
	s.render(t, cloneTree(tree))
	require.Less(t, s.bytes-first, first/4, "an unchanged render wrote %d bytes, the first %d", s.bytes-first, first)
}

type simRenderer struct {
	r     *JSRenderer
	dom   *simDOM
	bytes int // instruction bytes written so far
}

func newSimRenderer() *simRenderer {
	s := &simRenderer{dom: newSimDOM()}
	s.r = &JSRenderer{MountPointSelector: "#app", jsRenderState: newJsRenderState()}
	s.r.instructionList = newInstructionList(make([]byte, 512), func(il *instructionList) error {
		s.bytes += il.pos
		s.dom.run(il.buf[:il.pos])
		return nil
	})
	return s
}

func (s *simRenderer) render(t *testing.T, root *vugu.VGNode) {
	t.Helper()
	br := &vugu.BuildResults{}
	s.r.jsRenderState.callbackManager.startRender()
	s.r.hashSubtrees(br, root)
	require.NoError(t, s.r.visitFirst(s.r.jsRenderState, &vugu.BuildOut{Out: []*vugu.VGNode{root}}, br, root, []byte("0")))
	require.NoError(t, s.r.instructionList.flush())
	s.r.jsRenderState.callbackManager.doneRender()
}

// simNode is a DOM node: an element (tag), "#text", "#comment" or "#html"
// (an innerHTML the simulation does not parse).
type simNode struct {
	tag       string
	text      string
	attrs     map[string]string
	listeners map[string]bool
	parent    *simNode
	children  []*simNode
}

type simDOM struct {
	root                   *simNode // <body>, holding the mount point
	mount, el              *simNode
	next                   string // the helper's nextElMove
	attrNames, eventKeys   map[string]bool
	htmlCache              map[*simNode]string
	pendingHTML            string
	haveMount, mountedOnce bool
}

func newSimDOM() *simDOM {
	body := &simNode{tag: "body"}
	app := &simNode{tag: "div", attrs: map[string]string{"id": "app"}, parent: body}
	body.children = []*simNode{app}
	return &simDOM{root: body, mount: app, htmlCache: map[*simNode]string{}}
}

func (d *simDOM) String() string {
	var b strings.Builder
	var walk func(n *simNode)
	walk = func(n *simNode) {
		fmt.Fprintf(&b, "<%s", n.tag)
		keys := make([]string, 0, len(n.attrs))
		for k := range n.attrs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%q", k, n.attrs[k])
		}
		for k := range n.listeners {
			fmt.Fprintf(&b, " @%s", k)
		}
		fmt.Fprintf(&b, ">%q", n.text)
		for _, c := range n.children {
			walk(c)
		}
		b.WriteString("</>")
	}
	walk(d.root)
	return b.String()
}

func (n *simNode) index() int { return slices.Index(n.parent.children, n) }

func (n *simNode) nextSibling() *simNode {
	if i := n.index(); i+1 < len(n.parent.children) {
		return n.parent.children[i+1]
	}
	return nil
}

func (n *simNode) replaceWith(m *simNode) {
	m.parent = n.parent
	n.parent.children[n.index()] = m
}

func (n *simNode) appendChild(c *simNode) {
	c.parent = n
	n.children = append(n.children, c)
}

// move applies a pending cursor move, as the helper's moveTo* opcodes do.
func (d *simDOM) move() {
	switch d.next {
	case "first_child":
		d.el = d.el.children[0]
	case "next_sibling":
		d.el = d.el.nextSibling()
	}
	d.next = ""
	if d.el == nil {
		panic("simDOM: moved past the last node")
	}
}

// place moves the cursor onto the node to write, creating one of kind when
// there is none there; it reports whether it created it.
func (d *simDOM) place(create func() *simNode) bool {
	switch d.next {
	case "first_child":
		d.next = ""
		if len(d.el.children) > 0 {
			d.el = d.el.children[0]
			return false
		}
		n := create()
		d.el.appendChild(n)
		d.el = n
		return true
	case "next_sibling":
		d.next = ""
		if s := d.el.nextSibling(); s != nil {
			d.el = s
			return false
		}
		n := create()
		d.el.parent.appendChild(n)
		d.el = n
		return true
	}
	return false
}

func (d *simDOM) run(buf []byte) {
	off := 0
	u8 := func() byte { off++; return buf[off-1] }
	str := func() string {
		n := int(binary.BigEndian.Uint32(buf[off:]))
		off += 4 + n
		return string(buf[off-n : off])
	}
	for off < len(buf) {
		switch op := u8(); op {
		case opcodeEnd:
			return
		case opcodeClearEl:
			d.el, d.next = nil, ""
		case opcodeSelectMountPoint:
			d.attrNames, d.eventKeys = map[string]bool{}, map[string]bool{}
			str()
			tag := str()
			if !strings.EqualFold(d.mount.tag, tag) {
				n := &simNode{tag: tag}
				d.mount.replaceWith(n)
				d.mount = n
			}
			d.el, d.next = d.mount, ""
		case opcodeSetElement, opcodeSetElementNS:
			tag := str()
			if op == opcodeSetElementNS {
				str()
			}
			d.attrNames, d.eventKeys = map[string]bool{}, map[string]bool{}
			if !d.place(func() *simNode { return &simNode{tag: tag} }) && d.el.tag != tag {
				n := &simNode{tag: tag}
				d.el.replaceWith(n)
				d.el = n
			}
		case opcodeSetText, opcodeSetComment:
			text, kind := str(), "#text"
			if op == opcodeSetComment {
				kind = "#comment"
			}
			if d.place(func() *simNode { return &simNode{tag: kind, text: text} }) {
				break
			}
			if d.el.tag != kind {
				n := &simNode{tag: kind, text: text}
				d.el.replaceWith(n)
				d.el = n
			} else {
				d.el.text = text
			}
		case opcodeSetAttrStr, opcodeSetAttrNSStr:
			if op == opcodeSetAttrNSStr {
				str()
			}
			k, v := str(), str()
			if d.el.attrs == nil {
				d.el.attrs = map[string]string{}
			}
			d.el.attrs[k] = v
			d.attrNames[k] = true
		case opcodeRemoveOtherAttrs:
			for k := range d.el.attrs {
				if !d.attrNames[k] {
					delete(d.el.attrs, k)
				}
			}
		case opcodeMoveToFirstChild:
			if d.next != "" {
				d.move()
			}
			delete(d.htmlCache, d.el)
			d.next = "first_child"
		case opcodeMoveToNextSibling:
			if d.next != "" {
				d.move()
			}
			d.next = "next_sibling"
		case opcodeMoveToParent:
			if d.next == "first_child" {
				d.next = ""
				break
			}
			p := d.el.parent
			p.children = p.children[:d.el.index()+1]
			d.el, d.next = p, ""
		case opcodeBufferInnerHTML:
			d.pendingHTML += str()
		case opcodeSetInnerHTML:
			h := d.pendingHTML + str()
			d.pendingHTML = ""
			if c, ok := d.htmlCache[d.el]; ok && c == h {
				break
			}
			d.htmlCache[d.el] = h
			kind := "#html"
			if !strings.ContainsAny(h, "<&") {
				kind = "#text"
			}
			d.el.children = nil
			d.el.appendChild(&simNode{tag: kind, text: h})
		case opcodeSetEventListener:
			str()
			k := str() + fmt.Sprint(u8(), u8())
			d.eventKeys[k] = true
			if d.el.listeners == nil {
				d.el.listeners = map[string]bool{}
			}
			d.el.listeners[k] = true
		case opcodeRemoveOtherEventListeners:
			str()
			for k := range d.el.listeners {
				if !d.eventKeys[k] {
					delete(d.el.listeners, k)
				}
			}
		default:
			panic(fmt.Sprintf("simDOM: opcode %d", op))
		}
	}
}

var (
	simTags  = []string{"div", "span", "p", "ul", "li"}
	simWords = []string{"", "a", "b", "12", "34.5 ms", "tenant 7"}
)

func randomTree(rng *rand.Rand, depth int) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: simTags[rng.IntN(len(simTags))]}
	for range rng.IntN(3) {
		n.Attr = append(n.Attr, vugu.VGAttribute{Key: []string{"class", "title", "data-x"}[rng.IntN(3)], Val: simWords[rng.IntN(len(simWords))]})
	}
	if depth < 4 {
		kids := rng.IntN(5)
		if depth < 2 {
			kids += 2 // a dashboard's panels and rows
		}
		for range kids {
			if rng.IntN(3) == 0 {
				n.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: simWords[rng.IntN(len(simWords))]})
			} else {
				n.AppendChild(randomTree(rng, depth+1))
			}
		}
	}
	return n
}

func cloneTree(n *vugu.VGNode) *vugu.VGNode {
	c := &vugu.VGNode{Type: n.Type, Data: n.Data, Namespace: n.Namespace, Attr: slices.Clone(n.Attr),
		InnerHTML: n.InnerHTML, DOMEventHandlerSpecList: slices.Clone(n.DOMEventHandlerSpecList)}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(cloneTree(k))
	}
	return c
}

// mutate makes one to three random edits of the kinds a dashboard render
// makes (a number, an attribute, a row more or less, a tag, innerHTML, a
// listener) at random places of n.
func mutate(rng *rand.Rand, n *vugu.VGNode) *vugu.VGNode {
	var all []*vugu.VGNode
	var walk func(*vugu.VGNode)
	walk = func(v *vugu.VGNode) {
		all = append(all, v)
		for k := v.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(n)
	for range 1 + rng.IntN(3) {
		v := all[rng.IntN(len(all))]
		word := simWords[rng.IntN(len(simWords))]
		switch rng.IntN(8) {
		case 0:
			if v.Type == vugu.TextNode {
				v.Data = word
			}
		case 1:
			if v.Type == vugu.ElementNode && len(v.Attr) > 0 {
				v.Attr[rng.IntN(len(v.Attr))].Val = word
			}
		case 2:
			if v.Type == vugu.ElementNode {
				v.AppendChild(randomTree(rng, 3))
			}
		case 3:
			if v.LastChild != nil { // drop the last child
				removeLast(v)
			}
		case 4:
			if v.Type == vugu.ElementNode && v != n {
				v.Data = simTags[rng.IntN(len(simTags))]
			}
		case 5:
			if v.Type == vugu.ElementNode {
				if v.InnerHTML == nil {
					h := []string{"plain " + word, "<b>" + word + "</b>"}[rng.IntN(2)]
					v.InnerHTML = &h
				} else {
					v.InnerHTML = nil
				}
			}
		case 6:
			if v.Type == vugu.ElementNode {
				if len(v.DOMEventHandlerSpecList) == 0 {
					v.DOMEventHandlerSpecList = []vugu.DOMEventHandlerSpec{{EventType: "click"}}
				} else {
					v.DOMEventHandlerSpecList = nil
				}
			}
		case 7:
			if v.Type == vugu.ElementNode && v.FirstChild != nil { // a text child becomes an element or back
				k := v.FirstChild
				if k.Type == vugu.TextNode {
					k.Type, k.Data = vugu.ElementNode, "span"
				} else if k.FirstChild == nil {
					k.Type, k.Data, k.Attr, k.DOMEventHandlerSpecList, k.InnerHTML = vugu.TextNode, word, nil, nil, nil
				}
			}
		}
	}
	return n
}

func removeLast(v *vugu.VGNode) {
	last := v.LastChild
	if last.PrevSibling == nil {
		v.FirstChild, v.LastChild = nil, nil
		return
	}
	last.PrevSibling.NextSibling = nil
	v.LastChild = last.PrevSibling
}
