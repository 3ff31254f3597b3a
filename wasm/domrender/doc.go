// Package domrender is Vugu v0.4.0's DOM renderer (github.com/vugu/vugu,
// domrender, MIT licence, Copyright (c) 2019 vugu), forked for the page's
// frame time. It speaks the same instruction stream to the same helper,
// static/vugu-render.js (itself patched, see its header), and differs from
// upstream in four ways:
//
//   - an element whose subtree is the same as the last render wrote there
//     is selected and not written again (skip.go): the dashboard's unchanged
//     rows, labels and titles cost neither the Go side nor the helper;
//   - position IDs are appended with strconv, not fmt.Sprintf per child;
//   - New does not eval its own copy of the helper (the page's CSP forbids
//     eval); it requires window.vuguRender, which index.html loads;
//   - Coalesce takes the render requests that queued up while the caller
//     waited, so that one render answers them (upstream renders once per
//     request, up to 64 queued).
package domrender
