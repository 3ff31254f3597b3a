package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompact(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"element": {
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"div\", Attr: []vugu.VGAttribute{{Namespace: \"\", Key: \"class\", Val: \"a\"}, vugu.VGAttribute{Namespace: \"\", Key: \"title\", Val: \"b \\\"c\\\" {d}\"}}}\n\t\tvgparent.AppendChild(vgn)",
			"vgn = vgEl(vgparent, \"div\", \"class\", \"a\", \"title\", \"b \\\"c\\\" {d}\")",
		},
		"element without attributes": {
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"span\", Attr: []vugu.VGAttribute(nil)}\n\tvgparent.AppendChild(vgn)",
			"vgn = vgEl(vgparent, \"span\")",
		},
		"namespaced attribute": {
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"a\", Attr: []vugu.VGAttribute{{Namespace: \"xlink\", Key: \"href\", Val: \"#x\"}}}\n\tvgparent.AppendChild(vgn)",
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"a\", Attr: []vugu.VGAttribute{{Namespace: \"xlink\", Key: \"href\", Val: \"#x\"}}}\n\tvgparent.AppendChild(vgn)",
		},
		"root": {
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"div\", Attr: []vugu.VGAttribute(nil)}\n\tvgout.Out = append(vgout.Out, vgn)",
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"div\", Attr: []vugu.VGAttribute(nil)}\n\tvgout.Out = append(vgout.Out, vgn)",
		},
		"text": {
			"vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"Run \\\"x\\\"\"}\n\t\tvgparent.AppendChild(vgn)",
			"vgn = vgText(vgparent, \"Run \\\"x\\\"\")",
		},
		"event": {
			"vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{\n\tEventType:\t\"click\",\n\tFunc:\t\tfunc(event vugu.DOMEvent) { c.Run() },\n\t// TODO: implement capture, etc. mostly need to decide syntax\n})",
			"vgOn(vgn, \"click\", func(event vugu.DOMEvent) { c.Run() })",
		},
		"component": {
			"vgcomp, _ := vgin.BuildEnv.CachedComponent(vgcompKey).(*Badge)\n\tif vgcomp == nil {\n\t\t// create new one if needed\n\t\tvgcomp = new(Badge)\n\t\tvgin.BuildEnv.WireComponent(vgcomp)\n\t}\n\tvgin.BuildEnv.UseComponent(vgcompKey, vgcomp)\t// ensure we can use this in the cache next time around\n\tvgcomp.X = 1\n\tvgout.Components = append(vgout.Components, vgcomp)\n\tvgn = &vugu.VGNode{Component: vgcomp}\n\tvgparent.AppendChild(vgn)",
			"vgcomp := vgComponent[Badge](vgin, vgcompKey)\n\tvgcomp.X = 1\n\tvgn = vgMount(vgout, vgparent, vgcomp)",
		},
	} {
		assert.Equal(t, c.want, compact(c.in), name)
	}
}
