package ui

// vugugen adds an import of github.com/vugu/vjson to every generated file
// only to keep it "used"; the components never use it, so the second step
// drops it and ui needs no module beyond vugu itself.
//go:generate go tool vugugen -skip-go-mod -skip-main .
//go:generate sh -c "sed -i -e '/^import \"github.com\\/vugu\\/vjson\"$/d' -e '/^var _ vjson.RawMessage$/d' -e '/^import \"log\"$/d' -e '/^var _ log.Logger$/d' *_gen.go"
//go:generate sh -c "perl -0pi -e 's/\\n\\t*vgn = &vugu.VGNode\\{Type: vugu.VGNodeType\\(1\\), Data: \"\\\\n(?:\\\\t| )*\"\\}\\n\\t*vgparent.AppendChild\\(vgn\\)//g' *_gen.go"
// internal/vgcompact then writes each node, handler and child component of
// the Build functions as one call of a vgnodes.go helper.
//go:generate go run ./internal/vgcompact
//go:generate sh -c "gofmt -w *_gen.go"
