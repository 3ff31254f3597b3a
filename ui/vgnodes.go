package ui

import "github.com/vugu/vugu"

// The helpers the generated Build functions call (vgcompact.go writes the
// calls): each does what vugugen spells out in place, once per node.

// vgEl appends an element to parent: tag, with the attributes kv gives as
// key, value pairs, in order.
func vgEl(parent *vugu.VGNode, tag string, kv ...string) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: tag}
	if len(kv) > 0 {
		n.Attr = make([]vugu.VGAttribute, len(kv)/2)
		for i := range n.Attr {
			n.Attr[i] = vugu.VGAttribute{Key: kv[2*i], Val: kv[2*i+1]}
		}
	}
	parent.AppendChild(n)
	return n
}

// vgText appends a text node to parent.
func vgText(parent *vugu.VGNode, s string) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.TextNode, Data: s}
	parent.AppendChild(n)
	return n
}

// vgOn adds a handler of DOM events of type typ to n.
func vgOn(n *vugu.VGNode, typ string, f func(vugu.DOMEvent)) {
	n.DOMEventHandlerSpecList = append(n.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{EventType: typ, Func: f})
}

// vgComponent returns the child component at key: the one the last build
// used there, or a new, wired one; either way marked used in this build.
func vgComponent[T any, P interface {
	*T
	vugu.Builder
}](in *vugu.BuildIn, key vugu.CompKey) P {
	c, _ := in.BuildEnv.CachedComponent(key).(P)
	if c == nil {
		c = new(T)
		in.BuildEnv.WireComponent(c)
	}
	in.BuildEnv.UseComponent(key, c)
	return c
}

// vgMount appends the node of component c to parent and lists c in out.
func vgMount(out *vugu.BuildOut, parent *vugu.VGNode, c vugu.Builder) *vugu.VGNode {
	out.Components = append(out.Components, c)
	n := &vugu.VGNode{Component: c}
	parent.AppendChild(n)
	return n
}
