package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vugu/vugu"
)

// comp is a test component: Build returns what view makes of its state.
type comp struct {
	view            func() *vugu.BuildOut
	rendered, first int
}

func (c *comp) Build(*vugu.BuildIn) *vugu.BuildOut { return c.view() }
func (c *comp) Rendered(ctx vugu.RenderedCtx) {
	c.rendered++
	if ctx.First() {
		c.first++
	}
}

func el(tag string, attrs []vugu.VGAttribute, kids ...*vugu.VGNode) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: tag, Attr: attrs}
	for _, k := range kids {
		n.AppendChild(k)
	}
	return n
}

func text(s string) *vugu.VGNode { return &vugu.VGNode{Type: vugu.TextNode, Data: s} }

func attrs(kv ...string) []vugu.VGAttribute {
	var out []vugu.VGAttribute
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, vugu.VGAttribute{Key: kv[i], Val: kv[i+1]})
	}
	return out
}

func withContent(n *vugu.VGNode, html string) *vugu.VGNode { n.SetInnerHTML(vugu.HTML(html)); return n }

// harness renders components into a simDOM.
type harness struct {
	t    *testing.T
	tree Tree
	dom  *simDOM
	env  *vugu.BuildEnv
	life lifecycle
	back []*simNode
}

func newHarness(t *testing.T) *harness {
	env, err := vugu.NewBuildEnv()
	require.NoError(t, err)
	return &harness{t: t, tree: Tree{Selector: "#app"}, dom: newSimDOM(), env: env}
}

// render renders root and returns how many bytes of ops it took.
func (h *harness) render(root vugu.Builder) int {
	h.t.Helper()
	br := h.env.RunBuild(root)
	ops, err := h.tree.Sync(br)
	require.NoError(h.t, err)
	n := len(ops)
	h.back = h.dom.apply(h.t, ops)
	h.life.run(br, nil)
	return n
}

func (h *harness) html() string { return h.dom.root.html() }

func TestFirstRenderAdoptsTheMountElement(t *testing.T) {
	h := newHarness(t)
	root := &comp{view: func() *vugu.BuildOut {
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", attrs("class", "rs"), el("h1", nil, text("ring")), text(" "))}}
	}}
	h.render(root)
	assert.Same(t, h.dom.mount, h.dom.root, "the mount element is reused")
	assert.Equal(t, `<div class="rs"><h1>ring</h1> </div>`, h.html(), "its attributes and loader content are replaced")
}

func TestUnchangedRenderWritesNothing(t *testing.T) {
	h := newHarness(t)
	n := 0
	root := &comp{view: func() *vugu.BuildOut {
		n++ // a new tree with equal content every build
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", attrs("class", "rs", "title", "t"),
			withContent(el("span", attrs("class", "num")), "1,024"), el("p", nil, text("a"), text("b")))}}
	}}
	h.render(root)
	assert.Equal(t, 1, h.render(root), "only END")
	assert.Equal(t, 2, n)
}

func TestChangesWriteOnlyWhatChanged(t *testing.T) {
	h := newHarness(t)
	count, class, rows := "1", "num", []string{"a", "b", "c"}
	root := &comp{view: func() *vugu.BuildOut {
		list := el("ul", nil)
		for _, r := range rows {
			list.AppendChild(el("li", nil, text(r)))
		}
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil,
			withContent(el("span", attrs("class", class, "data-testid", "done-count")), count), list)}}
	}}
	h.render(root)
	require.Equal(t, `<div><span class="num" data-testid="done-count">1</span><ul><li>a</li><li>b</li><li>c</li></ul></div>`, h.html())

	count = "2"
	h.render(root)
	assert.Equal(t, map[byte]int{opContent: 1, opEnd: 1}, h.dom.ops)

	class = "num num-warn"
	h.render(root)
	assert.Equal(t, map[byte]int{opSetAttr: 1, opEnd: 1}, h.dom.ops)

	rows = []string{"a", "x"}
	h.render(root)
	assert.Equal(t, map[byte]int{opSetText: 1, opRemove: 1, opFree: 1, opEnd: 1}, h.dom.ops)
	assert.Equal(t, `<div><span class="num num-warn" data-testid="done-count">2</span><ul><li>a</li><li>x</li></ul></div>`, h.html())

	rows = []string{"a", "x", "y", "z"}
	h.render(root)
	assert.Equal(t, 4, h.dom.ops[opAppend], "two rows, each with its text")
	assert.Equal(t, `<div><span class="num num-warn" data-testid="done-count">2</span><ul><li>a</li><li>x</li><li>y</li><li>z</li></ul></div>`, h.html())
	assert.Len(t, h.dom.nodes, len(h.tree.byID)-1-len(h.tree.free), "render.js forgets what Go forgets")
}

func TestAttributesAddedAndRemoved(t *testing.T) {
	h := newHarness(t)
	a := attrs("class", "x", "title", "t")
	root := &comp{view: func() *vugu.BuildOut { return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", a)}} }}
	h.render(root)
	a = attrs("title", "t", "open", "")
	h.render(root)
	assert.Equal(t, `<div open="" title="t"></div>`, h.html())
	assert.Equal(t, map[byte]int{opSetAttr: 1, opDelAttr: 1, opEnd: 1}, h.dom.ops)
}

func TestAnotherTagReplacesTheNode(t *testing.T) {
	h := newHarness(t)
	tag := "span"
	root := &comp{view: func() *vugu.BuildOut {
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, el(tag, nil, text("x")), el("b", nil))}}
	}}
	h.render(root)
	tag = "em"
	h.render(root)
	assert.Equal(t, `<div><em>x</em><b></b></div>`, h.html())
	assert.Equal(t, 1, h.dom.ops[opInsert])
	assert.Equal(t, 1, h.dom.ops[opRemove])
}

func TestContentAndChildrenTakeTurns(t *testing.T) {
	h := newHarness(t)
	asContent := true
	root := &comp{view: func() *vugu.BuildOut {
		p := el("p", nil)
		if asContent {
			withContent(p, "<b>bold</b>")
		} else {
			p.AppendChild(el("i", nil, text("kids")))
		}
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, p)}}
	}}
	h.render(root)
	assert.Equal(t, `<div><p><b>bold</b></p></div>`, h.html())
	asContent = false
	h.render(root)
	assert.Equal(t, `<div><p><i>kids</i></p></div>`, h.html())
	asContent = true
	h.render(root)
	assert.Equal(t, `<div><p><b>bold</b></p></div>`, h.html())
	assert.Len(t, h.dom.nodes, len(h.tree.byID)-1-len(h.tree.free))
}

// A nested component's root and a template's children are children of the
// element they are in; Rendered reaches nested components too.
func TestComponentsAndTemplatesFlatten(t *testing.T) {
	h := newHarness(t)
	label := "inner"
	inner := &comp{}
	inner.view = func() *vugu.BuildOut {
		return &vugu.BuildOut{Out: []*vugu.VGNode{withContent(el("em", nil), label)}}
	}
	middle := &comp{}
	middle.view = func() *vugu.BuildOut {
		tpl := &vugu.VGNode{Type: vugu.ElementNode} // a template: no tag
		tpl.AppendChild(text("t1"))
		tpl.AppendChild(&vugu.VGNode{Component: inner})
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("section", nil, tpl, text("t2"))}, Components: []vugu.Builder{inner}}
	}
	root := &comp{view: func() *vugu.BuildOut {
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, &vugu.VGNode{Component: middle})}, Components: []vugu.Builder{middle}}
	}}
	h.render(root)
	assert.Equal(t, `<div><section>t1<em>inner</em>t2</section></div>`, h.html())
	label = "changed"
	h.render(root)
	assert.Equal(t, `<div><section>t1<em>changed</em>t2</section></div>`, h.html())
	assert.Equal(t, map[byte]int{opContent: 1, opEnd: 1}, h.dom.ops)
	assert.Equal(t, [2]int{2, 1}, [2]int{middle.rendered, middle.first})
	assert.Equal(t, [2]int{2, 1}, [2]int{inner.rendered, inner.first}, "nested components get Rendered")
}

// A vg-js-create host's children are the component's (a canvas): renders
// neither write nor remove them, and the handler gets the element on
// every render.
func TestJSCreateHostKeepsItsOwnChildren(t *testing.T) {
	h := newHarness(t)
	var got []*simNode
	root := &comp{view: func() *vugu.BuildOut {
		host := el("div", attrs("class", "plot"))
		host.JSCreateHandler = vugu.JSValueFunc(nil)
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, host)}}
	}}
	h.render(root)
	require.Len(t, h.back, 1)
	h.back[0].append(&simNode{tag: "canvas", attrs: map[string]string{}})
	got = append(got, h.back...)
	h.render(root)
	assert.Equal(t, `<div><div class="plot"><canvas></canvas></div></div>`, h.html())
	require.Len(t, h.back, 1)
	assert.Same(t, got[0], h.back[0])
}

// Listeners stay registered across renders; each render's handler is the
// one an event reaches.
func TestListenersKeepTheirSlots(t *testing.T) {
	h := newHarness(t)
	calls := ""
	gen := 0
	root := &comp{view: func() *vugu.BuildOut {
		gen++
		mine := gen
		b := el("button", nil, text("run"))
		b.DOMEventHandlerSpecList = []vugu.DOMEventHandlerSpec{{EventType: "click", Func: func(vugu.DOMEvent) { calls += string(rune('0' + mine)) }}}
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, b)}}
	}}
	h.render(root)
	assert.Equal(t, 1, h.dom.ops[opListen])
	h.render(root)
	assert.Equal(t, 0, h.dom.ops[opListen], "the same listener stays")
	button := h.tree.root.children[0]
	spec, ok := h.tree.handler(button.id, 0, "click")
	require.True(t, ok)
	spec.Func(nil)
	assert.Equal(t, "2", calls, "the last build's handler")
	_, ok = h.tree.handler(button.id, 0, "input")
	assert.False(t, ok, "another type on that slot")
	_, ok = h.tree.handler(999, 0, "click")
	assert.False(t, ok, "no such node")
}

func TestRootErrors(t *testing.T) {
	var tr Tree
	for name, bo := range map[string]*vugu.BuildOut{
		"two nodes": {Out: []*vugu.VGNode{el("div", nil), el("div", nil)}},
		"text":      {Out: []*vugu.VGNode{text("x")}},
		"html":      {Out: []*vugu.VGNode{el("html", nil)}},
		"css":       {Out: []*vugu.VGNode{el("div", nil)}, CSS: []*vugu.VGNode{el("style", nil)}},
	} {
		env, err := vugu.NewBuildEnv()
		require.NoError(t, err)
		_, err = tr.Sync(env.RunBuild(&comp{view: func() *vugu.BuildOut { return bo }}))
		assert.Error(t, err, name)
	}
}

func TestKeepMarkerLeavesTheSubtree(t *testing.T) {
	h := newHarness(t)
	keep, count := false, "1"
	clicks := 0
	root := &comp{view: func() *vugu.BuildOut {
		var panel *vugu.VGNode
		if keep {
			panel = el("section", attrs(KeepAttr, ""))
		} else {
			panel = el("section", attrs("class", "panel"), withContent(el("span", nil), count))
			panel.DOMEventHandlerSpecList = []vugu.DOMEventHandlerSpec{{EventType: "click", Func: func(vugu.DOMEvent) { clicks++ }}}
		}
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, withContent(el("b", nil), count), panel)}}
	}}
	h.render(root)
	want := `<div><b>1</b><section class="panel"><span>1</span></section></div>`
	require.Equal(t, want, h.html())

	keep, count = true, "2"
	h.render(root)
	assert.Equal(t, map[byte]int{opContent: 1, opEnd: 1}, h.dom.ops, "only the header's count: the kept panel is not written")
	assert.Equal(t, `<div><b>2</b><section class="panel"><span>1</span></section></div>`, h.html())
	section := h.tree.root.children[1]
	hd, ok := h.tree.handler(section.id, 0, "click")
	require.True(t, ok, "a kept element's listener still leads to its handler")
	hd.Func(nil)
	assert.Equal(t, 1, clicks)

	keep = false
	h.render(root)
	assert.Equal(t, `<div><b>2</b><section class="panel"><span>2</span></section></div>`, h.html(), "built again, it shows the new state")
}

func TestKeepMarkerWithNothingToKeepIsAnEmptyElement(t *testing.T) {
	h := newHarness(t)
	root := &comp{view: func() *vugu.BuildOut {
		return &vugu.BuildOut{Out: []*vugu.VGNode{el("div", nil, el("section", attrs(KeepAttr, "")))}}
	}}
	h.render(root)
	assert.Equal(t, `<div><section `+KeepAttr+`=""></section></div>`, h.html())
}
