// Package render puts a Vugu component tree on the page's DOM: it is the
// renderer behind vugu.BuildResults, written for this page against Vugu's
// public API (the VGNode tree, EventEnv, DOMEvent, the Rendered hook).
//
// A render is one pass in Go and one call into JavaScript. Go keeps a
// record of every DOM node it made (Tree: tag, attributes, text, content,
// listeners, children) and compares the new VGNode tree with it, so only
// what changed is written: an unchanged title, label or row costs a
// comparison in Go and nothing in the browser. The writes go into one
// packed buffer (ops.go), copied to the page with js.CopyBytesToJS and
// applied by static/render.js, which reads it and touches only the nodes
// the buffer names (by id, never by walking the DOM). Names that repeat
// (tags, attribute names, event types) cross once and are then referred to
// by number, so the helper builds no string for them again.
//
// A call from Go into JavaScript that passes Go strings costs an order of
// magnitude more than a pre-bound function called with numbers (issue 21
// measured both), so a render makes one such call: apply(length), looked
// up once.
//
// Events: render.js calls one Go function with the node id, the listener's
// slot, the event type and a JSON summary of the event (its and its
// target's primitive properties, as vugu.DOMEvent.Prop reads them). The
// handler runs at once when the EventEnv lock is free, otherwise (an event
// the DOM fires while a render holds the lock, such as a blur when a
// focused node is removed) on a goroutine after the render: a JS callback
// never waits for the lock. A handler's panic is reported on the console;
// it does not end the program, and neither does anything a page's script
// passes in.
//
// Rendered is called after every render on every component of the tree,
// nested ones included (Vugu v0.4's own renderer calls it on the root's
// direct children only), with First true the first time.
//
// Not supported, and reported as a render error: component CSS (the
// page's styles live in static/) and an <html> root.
package render
