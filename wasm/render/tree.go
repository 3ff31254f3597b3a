package render

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vugu/vugu"
)

// node is what the renderer last wrote into one DOM node it owns. Only
// the renderer writes these nodes (a vg-js-create host's children are the
// component's: the renderer writes none there and removes none), so the
// record is the DOM's state and a render writes the difference.
type node struct {
	id      uint32
	kind    vugu.VGNodeType
	tag, ns string // element tag and namespace URI
	text    string // a text node's or comment's data
	attrs   []vugu.VGAttribute
	// content is the element's vg-content, when hasContent; its DOM
	// children are then the browser's, not in children.
	content    string
	hasContent bool
	children   []*node
	// listen are the listeners registered on the element, by slot;
	// handlers the functions of this render's build for them.
	listen   []listenKey
	handlers []vugu.DOMEventHandlerSpec
}

// listenKey is one registered addEventListener.
type listenKey struct {
	typ              string
	capture, passive bool
}

// callback is a vg-js-create or vg-js-populate handler to call with the
// element of id once the buffer is applied.
type callback struct {
	id uint32
	h  vugu.JSValueHandler
}

// Tree is the DOM under the mount point as the renderer last wrote it,
// and the ops of the render in progress. The zero value has written
// nothing: its first Sync adopts the mount element.
type Tree struct {
	// Selector is the CSS selector of the mount element, which becomes
	// the root component's element.
	Selector string

	root  *node
	byID  []*node // by id; 0 is never used
	free  []uint32
	enc   encoder
	calls []callback
	// stack holds the flattened children of the elements being synced
	// (components and templates expanded), one run per recursion level.
	stack []*vugu.VGNode
	br    *vugu.BuildResults
}

// Sync compares br's tree with what the DOM holds and returns the ops
// that make the DOM match it, valid until the next Sync. callbacks lists
// the handlers to call once they are applied, with the elements render.js
// hands back, in order.
func (t *Tree) Sync(br *vugu.BuildResults) ([]byte, error) {
	t.enc.reset()
	t.calls = t.calls[:0]
	if br == nil || br.Out == nil || len(br.Out.Out) != 1 {
		return nil, errors.New("render: the root component must build exactly one node")
	}
	v := br.Out.Out[0]
	if v.Type != vugu.ElementNode || v.Component != nil || v.IsTemplate() {
		return nil, errors.New("render: the root component must build one element")
	}
	if strings.EqualFold(v.Data, "html") {
		return nil, errors.New("render: an <html> root is not supported: mount the component on an element")
	}
	if err := checkCSS(br, br.Out, 0); err != nil {
		return nil, err
	}
	t.br = br
	defer func() { t.br = nil }()
	ns := namespaceURI(v.Namespace)
	if t.root == nil || t.root.tag != v.Data || t.root.ns != ns {
		t.Reset()
		t.root = t.newNode(vugu.ElementNode, v.Data, ns)
		tag, nsSym := t.enc.sym(v.Data), t.enc.sym(ns)
		t.enc.op1(opAdopt, t.root.id)
		t.enc.str(t.Selector)
		t.enc.u32(tag)
		t.enc.u32(nsSym)
	}
	t.syncElement(t.root, v)
	return t.enc.end(), nil
}

// callbacks are the last Sync's vg-js handlers, in the order of its
// opCallback ops.
func (t *Tree) callbacks() []callback { return t.calls }

// Reset forgets the DOM: the next Sync adopts the mount element again and
// writes everything. Call it when applying the ops failed half way.
func (t *Tree) Reset() {
	t.root = nil
	clear(t.byID)
	t.byID, t.free = t.byID[:0], t.free[:0]
	t.enc.forget()
}

// handler returns the handler of a listener (node id, slot) for an event
// render.js reports; ok is false for a node or slot that no
// longer exists or listens to another type (an event queued before a
// render replaced it).
func (t *Tree) handler(id, slot uint32, typ string) (vugu.DOMEventHandlerSpec, bool) {
	if int(id) >= len(t.byID) || t.byID[id] == nil {
		return vugu.DOMEventHandlerSpec{}, false
	}
	n := t.byID[id]
	if int(slot) >= len(n.listen) || int(slot) >= len(n.handlers) || n.listen[slot].typ != typ {
		return vugu.DOMEventHandlerSpec{}, false
	}
	return n.handlers[slot], true
}

func (t *Tree) newNode(kind vugu.VGNodeType, tag, ns string) *node {
	var id uint32
	if k := len(t.free); k > 0 {
		id, t.free = t.free[k-1], t.free[:k-1]
	} else {
		if len(t.byID) == 0 {
			t.byID = append(t.byID, nil) // id 0 means none
		}
		id = uint32(len(t.byID))
		t.byID = append(t.byID, nil)
	}
	n := &node{id: id, kind: kind, tag: tag, ns: ns}
	t.byID[id] = n
	return n
}

// release forgets n and its subtree: opRemove for n (detached == false),
// opFree for the nodes that go with it.
func (t *Tree) release(n *node, detached bool) {
	if detached {
		t.enc.op1(opFree, n.id)
	} else {
		t.enc.op1(opRemove, n.id)
	}
	for _, c := range n.children {
		t.release(c, true)
	}
	t.byID[n.id] = nil
	t.free = append(t.free, n.id)
}

// KeepAttr, as an element's only attribute, marks a node that stands for
// the DOM the last render left at its place: the renderer writes nothing
// there and keeps that subtree's record (its listeners and their
// handlers too). A component that skips a build (ui.Throttled) builds one
// in place of its tree. Where no DOM is there yet, it becomes an empty
// element of its tag.
const KeepAttr = "data-rs-keep"

// keeps reports whether v is such a marker.
func keeps(v *vugu.VGNode) bool {
	return v.Type == vugu.ElementNode && len(v.Attr) == 1 && v.Attr[0].Key == KeepAttr && v.FirstChild == nil
}

// syncElement makes element n hold v's attributes, listeners and children.
func (t *Tree) syncElement(n *node, v *vugu.VGNode) {
	if keeps(v) && (len(n.attrs) > 0 || len(n.children) > 0 || n.hasContent) {
		return // a kept subtree (a new node gets v's tag and no more)
	}
	t.syncAttrs(n, v.Attr)
	for _, p := range v.Prop {
		k := t.enc.sym(p.Key)
		t.enc.op1(opProp, n.id)
		t.enc.u32(k)
		t.enc.str(string(p.JSONVal))
	}
	t.syncListeners(n, v.DOMEventHandlerSpecList)
	if v.JSCreateHandler != nil {
		t.enc.op1(opCallback, n.id)
		t.calls = append(t.calls, callback{n.id, v.JSCreateHandler})
	}
	if v.InnerHTML != nil {
		if !n.hasContent {
			for _, c := range n.children {
				t.release(c, true) // the content replaces them
			}
			clear(n.children)
			n.children = n.children[:0]
		}
		if !n.hasContent || n.content != *v.InnerHTML {
			t.enc.op1(opContent, n.id)
			t.enc.str(*v.InnerHTML)
			n.content, n.hasContent = *v.InnerHTML, true
		}
	} else {
		if n.hasContent {
			t.enc.op1(opContent, n.id)
			t.enc.str("")
			n.content, n.hasContent = "", false
		}
		t.syncChildren(n, v)
	}
	if v.JSPopulateHandler != nil {
		t.enc.op1(opCallback, n.id)
		t.calls = append(t.calls, callback{n.id, v.JSPopulateHandler})
	}
}

// syncChildren makes n's children v's, position by position: a child of
// the same kind and tag is synced in place, any other is built detached
// and put in its place.
func (t *Tree) syncChildren(n *node, v *vugu.VGNode) {
	start := len(t.stack)
	for c := v.FirstChild; c != nil; c = c.NextSibling {
		t.stack = t.flatten(t.stack, c)
	}
	count := len(t.stack) - start
	for i := range count {
		cv := t.stack[start+i]
		if i < len(n.children) && fits(n.children[i], cv) {
			t.syncNode(n.children[i], cv)
			continue
		}
		c := t.build(cv)
		if i < len(n.children) {
			t.enc.op1(opInsert, n.id)
			t.enc.u32(c.id)
			t.enc.u32(n.children[i].id)
			t.release(n.children[i], false)
			n.children[i] = c
		} else {
			t.enc.op1(opAppend, n.id)
			t.enc.u32(c.id)
			n.children = append(n.children, c)
		}
	}
	if count < len(n.children) {
		for _, c := range n.children[count:] {
			t.release(c, false)
		}
		clear(n.children[count:])
		n.children = n.children[:count]
	}
	clear(t.stack[start:])
	t.stack = t.stack[:start]
}

// flatten appends the DOM nodes v stands for: a component its root, a
// template its children.
func (t *Tree) flatten(out []*vugu.VGNode, v *vugu.VGNode) []*vugu.VGNode {
	for v.Component != nil {
		bo := t.br.ResultFor(v.Component)
		if bo == nil || len(bo.Out) != 1 {
			// A component that built no single node shows as a comment
			// saying so, rather than failing the whole page.
			return append(out, &vugu.VGNode{Type: vugu.CommentNode, Data: fmt.Sprintf("render: component %T did not build exactly one node", v.Component)})
		}
		v = bo.Out[0]
	}
	if v.IsTemplate() {
		for c := v.FirstChild; c != nil; c = c.NextSibling {
			out = t.flatten(out, c)
		}
		return out
	}
	return append(out, v)
}

// fits reports whether DOM node n can become v in place.
func fits(n *node, v *vugu.VGNode) bool {
	if n.kind != v.Type {
		return false
	}
	if keeps(v) {
		return true // whatever element is there stays
	}
	return v.Type != vugu.ElementNode || (n.tag == v.Data && n.ns == namespaceURI(v.Namespace))
}

func (t *Tree) syncNode(n *node, v *vugu.VGNode) {
	switch v.Type {
	case vugu.ElementNode:
		t.syncElement(n, v)
	default:
		if n.text != v.Data {
			t.enc.op1(opSetText, n.id)
			t.enc.str(v.Data)
			n.text = v.Data
		}
	}
}

// build creates the DOM node for v, with its subtree, not yet attached.
func (t *Tree) build(v *vugu.VGNode) *node {
	switch v.Type {
	case vugu.ElementNode:
		ns := namespaceURI(v.Namespace)
		n := t.newNode(vugu.ElementNode, v.Data, ns)
		tag := t.enc.sym(v.Data)
		if ns == "" {
			t.enc.op1(opElement, n.id)
			t.enc.u32(tag)
		} else {
			nsSym := t.enc.sym(ns)
			t.enc.op1(opElementNS, n.id)
			t.enc.u32(tag)
			t.enc.u32(nsSym)
		}
		t.syncElement(n, v)
		return n
	case vugu.CommentNode:
		n := t.newNode(vugu.CommentNode, "", "")
		t.enc.op1(opComment, n.id)
		t.enc.str(v.Data)
		n.text = v.Data
		return n
	default: // text; a document or doctype node inside a component is written as its text
		n := t.newNode(vugu.TextNode, "", "")
		t.enc.op1(opText, n.id)
		t.enc.str(v.Data)
		n.text = v.Data
		return n
	}
}

// checkCSS reports component CSS, which this renderer does not place.
func checkCSS(br *vugu.BuildResults, bo *vugu.BuildOut, depth int) error {
	if len(bo.CSS) > 0 {
		return errors.New("render: component CSS is not supported: put styles in static/")
	}
	for _, c := range bo.Components {
		if sub := br.ResultFor(c); sub != nil && depth < maxDepth {
			if err := checkCSS(br, sub, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxDepth bounds the walks over nested components.
const maxDepth = 256

// namespaceURI maps a VGNode's namespace (as the HTML parser names it) to
// the URI createElementNS takes; "" for HTML.
func namespaceURI(ns string) string {
	switch ns {
	case "", "html":
		return ""
	case "svg":
		return "http://www.w3.org/2000/svg"
	case "math":
		return "http://www.w3.org/1998/Math/MathML"
	case "xlink":
		return "http://www.w3.org/1999/xlink"
	case "xml":
		return "http://www.w3.org/XML/1998/namespace"
	case "xmlns":
		return "http://www.w3.org/2000/xmlns/"
	}
	return ns
}
