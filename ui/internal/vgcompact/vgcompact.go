package main

import (
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

const (
	str  = `"(?:[^"\\]|\\.)*"` // a Go string literal on one line
	attr = `(?:vugu\.VGAttribute)?\{Namespace: "", Key: (` + str + `), Val: (` + str + `)\}`
)

var (
	element = regexp.MustCompile(`vgn = &vugu\.VGNode\{Type: vugu\.VGNodeType\(3\), Namespace: "", Data: ("[^"]*"), ` +
		`Attr: \[\]vugu\.VGAttribute(\(nil\)|\{.*\})\}\n\s*vgparent\.AppendChild\(vgn\)`)
	attrs = regexp.MustCompile(`^` + attr + `(?:, |$)`)
	text  = regexp.MustCompile(`vgn = &vugu\.VGNode\{Type: vugu\.VGNodeType\(1\), Data: (` + str + `)\}\n\s*vgparent\.AppendChild\(vgn\)`)
	event = regexp.MustCompile(`vgn\.DOMEventHandlerSpecList = append\(vgn\.DOMEventHandlerSpecList, vugu\.DOMEventHandlerSpec\{\n` +
		`\s*EventType:\s*("[^"]*"),\n\s*Func:\s*(func\(event vugu\.DOMEvent\) \{.*\}),\n` +
		`\s*// TODO: implement capture, etc\. mostly need to decide syntax\n\s*\}\)`)
	cached = regexp.MustCompile(`vgcomp, _ := vgin\.BuildEnv\.CachedComponent\(vgcompKey\)\.\(\*(\w+)\)\n` +
		`\s*if vgcomp == nil \{\n\s*// create new one if needed\n\s*vgcomp = new\((\w+)\)\n` +
		`\s*vgin\.BuildEnv\.WireComponent\(vgcomp\)\n\s*\}\n` +
		`\s*vgin\.BuildEnv\.UseComponent\(vgcompKey, vgcomp\)\s*// ensure we can use this in the cache next time around`)
	mount = regexp.MustCompile(`vgout\.Components = append\(vgout\.Components, vgcomp\)\n` +
		`\s*vgn = &vugu\.VGNode\{Component: vgcomp\}\n\s*vgparent\.AppendChild\(vgn\)`)
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := filepath.Glob(filepath.Join(dir, "*_gen.go"))
	if err != nil || len(files) == 0 {
		log.Fatalf("vgcompact: no *_gen.go in %s (%v)", dir, err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(compact(string(b))), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func compact(src string) string {
	src = element.ReplaceAllStringFunc(src, func(m string) string {
		sub := element.FindStringSubmatch(m)
		args, list := []string{"vgparent", sub[1]}, sub[2]
		if list != "(nil)" {
			list = list[1 : len(list)-1]
			for list != "" {
				kv := attrs.FindStringSubmatch(list)
				if kv == nil {
					return m // an attribute with a namespace: left as it is
				}
				args = append(args, kv[1], kv[2])
				list = list[len(kv[0]):]
			}
		}
		return "vgn = vgEl(" + strings.Join(args, ", ") + ")"
	})
	src = text.ReplaceAllString(src, "vgn = vgText(vgparent, $1)")
	src = event.ReplaceAllString(src, "vgOn(vgn, $1, $2)")
	src = cached.ReplaceAllStringFunc(src, func(m string) string {
		sub := cached.FindStringSubmatch(m)
		if sub[1] != sub[2] {
			return m
		}
		return "vgcomp := vgComponent[" + sub[1] + "](vgin, vgcompKey)"
	})
	return mount.ReplaceAllString(src, "vgn = vgMount(vgout, vgparent, vgcomp)")
}
