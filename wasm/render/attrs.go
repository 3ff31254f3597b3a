package render

import "github.com/vugu/vugu"

// syncAttrs writes the attributes of want that n does not hold with that
// value and removes those it holds that want lacks. A build lists an
// element's attributes in the same order every time, so the common case is
// one pass comparing position by position.
func (t *Tree) syncAttrs(n *node, want []vugu.VGAttribute) {
	inOrder := len(want) == len(n.attrs)
	for i, a := range want {
		if n.ns == "" && a.Namespace == "" && a.Key == "xmlns" {
			continue // the parser's xmlns: the element already has its namespace
		}
		if i < len(n.attrs) && n.attrs[i].Key == a.Key && n.attrs[i].Namespace == a.Namespace {
			if n.attrs[i].Val != a.Val {
				t.setAttr(n.id, a)
			}
			continue
		}
		inOrder = false
		if old, ok := findAttr(n.attrs, a.Namespace, a.Key); !ok || old != a.Val {
			t.setAttr(n.id, a)
		}
	}
	if !inOrder {
		for _, old := range n.attrs {
			if _, ok := findAttr(want, old.Namespace, old.Key); !ok {
				t.delAttr(n.id, old)
			}
		}
	}
	n.attrs = append(n.attrs[:0], want...)
}

func findAttr(as []vugu.VGAttribute, ns, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key && a.Namespace == ns {
			return a.Val, true
		}
	}
	return "", false
}

func (t *Tree) setAttr(id uint32, a vugu.VGAttribute) {
	t.attrOp(opSetAttr, opSetAttrNS, id, a)
	t.enc.str(a.Val)
}

func (t *Tree) delAttr(id uint32, a vugu.VGAttribute) {
	t.attrOp(opDelAttr, opDelAttrNS, id, a)
}

// attrOp writes op for a's element and name, or opNS with the namespace
// when a has one.
func (t *Tree) attrOp(op, opNS byte, id uint32, a vugu.VGAttribute) {
	key := t.enc.sym(a.Key)
	if ns := namespaceURI(a.Namespace); ns != "" {
		nsSym := t.enc.sym(ns)
		t.enc.op1(opNS, id)
		t.enc.u32(nsSym)
	} else {
		t.enc.op1(op, id)
	}
	t.enc.u32(key)
}

// syncListeners registers the listeners specs need. Each build makes new
// handler functions for the same listeners, so the DOM listeners stay and
// only the functions they lead to (n.handlers) are replaced; the DOM is
// written only when the set of listeners changed.
func (t *Tree) syncListeners(n *node, specs []vugu.DOMEventHandlerSpec) {
	same := len(specs) == len(n.listen)
	for i := 0; same && i < len(specs); i++ {
		s := specs[i]
		same = n.listen[i] == listenKey{s.EventType, s.Capture, s.Passive}
	}
	if !same {
		for slot := range n.listen {
			t.enc.op1(opUnlisten, n.id)
			t.enc.u32(uint32(slot))
		}
		n.listen = n.listen[:0]
		for slot, s := range specs {
			typ := t.enc.sym(s.EventType)
			var flags uint32
			if s.Capture {
				flags |= flagCapture
			}
			if s.Passive {
				flags |= flagPassive
			}
			t.enc.op1(opListen, n.id)
			t.enc.u32(uint32(slot))
			t.enc.u32(typ)
			t.enc.u32(flags)
			n.listen = append(n.listen, listenKey{s.EventType, s.Capture, s.Passive})
		}
	}
	clear(n.handlers)
	n.handlers = append(n.handlers[:0], specs...)
}
