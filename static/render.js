// static/render.js: applies the DOM writes of ringscope's renderer
// (wasm/render). Go compares each render's component tree with what it
// wrote before and packs only the differences into one buffer; apply()
// reads it and writes exactly those nodes, which it knows by number. It
// never walks or reads the DOM to find out what changed: Go already knows.
//
// The buffer (wasm/render/ops.go is the other half of this table): ops of
// one code byte and operands, little-endian uint32 numbers and strings
// (uint32 byte length, UTF-8), ended by END. Names that repeat (tags,
// attribute names, event types) are defined once as symbols (SYM) and
// then referred to by number, so no string is built for them again.
//
// Loaded as a file before main.wasm (the page's CSP forbids eval).
(() => {
  'use strict';
  if (globalThis.ringscopeRender) return;

  const OP = {
    END: 0, SYM: 1, CLEAR_SYMS: 2, ADOPT: 3, ELEMENT: 4, ELEMENT_NS: 5, TEXT: 6, COMMENT: 7,
    SET_ATTR: 8, SET_ATTR_NS: 9, DEL_ATTR: 10, DEL_ATTR_NS: 11, CONTENT: 12, SET_TEXT: 13,
    APPEND: 14, INSERT: 15, REMOVE: 16, FREE: 17, LISTEN: 18, UNLISTEN: 19, CALLBACK: 20, PROP: 21,
  };
  const CAPTURE = 1, PASSIVE = 2;

  const decoder = new TextDecoder();
  // renderer is one Go program's renderer: its buffer, symbols, nodes and
  // listeners. The page's own program uses window.ringscopeRender; each
  // instance of createRingscope its own, from create().
  function renderer(mount = null) {
    let bytes = new Uint8Array(1 << 16); // Go copies each render's ops here
    let pos = 0;
    let syms = [];
    let nodes = []; // id → DOM node
    let listeners = []; // id → [slot] → {type, fn, capture}
    let root = mount; // the mount element (ADOPT; until then, the one given)
    let onEvent = null; // Go's handler: (id, slot, type, summaryJSON, event)

    const u32 = () => {
      const v = bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24);
      pos += 4;
      return v >>> 0;
    };
    // Short ASCII strings (numbers, class names) are cheaper to assemble by
    // hand than through TextDecoder.
    const str = () => {
      const n = u32(), start = pos, end = pos + n;
      pos = end;
      if (n <= 32) {
        let s = '';
        for (let i = start; i < end; i++) {
          const c = bytes[i];
          if (c > 127) return decoder.decode(bytes.subarray(start, end));
          s += String.fromCharCode(c);
        }
        return s;
      }
      return decoder.decode(bytes.subarray(start, end));
    };
    const sym = () => syms[u32()];
    const node = () => {
      const id = u32(), n = nodes[id];
      if (n === undefined) throw new Error(`render.js: no node ${id}`);
      return n;
    };

    // The event summary: the primitive properties of the event and of its
    // target, which vugu.DOMEvent.Prop reads ("target", "value"). The
    // serialised subtrees of an element are left out: they can be large and
    // no handler reads them.
    const skipped = new Set(['innerHTML', 'outerHTML', 'innerText', 'outerText', 'textContent']);
    const primitives = (o) => {
      const out = {};
      for (const k in o) {
        if (skipped.has(k)) continue;
        try {
          const v = o[k], t = typeof v;
          if (t === 'string' || t === 'number' || t === 'boolean') out[k] = v;
        } catch {
          // a getter that throws on this object: not part of the summary
        }
      }
      return out;
    };
    const summary = (ev) => {
      const out = primitives(ev);
      if (ev.target) out.target = primitives(ev.target);
      return JSON.stringify(out);
    };

    const listen = (el, id, slot, type, flags) => {
      const capture = (flags & CAPTURE) !== 0, passive = (flags & PASSIVE) !== 0;
      const fn = (ev) => {
        if (onEvent) onEvent(id, slot, type, summary(ev), ev);
      };
      el.addEventListener(type, fn, { capture, passive });
      (listeners[id] ||= [])[slot] = { type, fn, capture };
    };
    const unlisten = (el, id, slot) => {
      const l = listeners[id]?.[slot];
      if (!l) return;
      el.removeEventListener(l.type, l.fn, { capture: l.capture });
      listeners[id][slot] = undefined;
    };
    const forget = (id) => {
      nodes[id] = undefined;
      listeners[id] = undefined;
    };

    // vg-content: text without markup goes into the element's one text node
    // (no HTML parser, no new node); anything else through innerHTML.
    const content = (el, html) => {
      if (html.indexOf('<') < 0 && html.indexOf('&') < 0) {
        const c = el.firstChild;
        if (c !== null && c === el.lastChild && c.nodeType === Node.TEXT_NODE) c.nodeValue = html;
        else el.textContent = html;
      } else {
        el.innerHTML = html;
      }
    };

    const create = (tag, ns) => (ns ? document.createElementNS(ns, tag) : document.createElement(tag));

    // adopt makes the mount element node id, emptied: the first render, or
    // one after a failed apply, writes everything again.
    const adopt = (id, selector, tag, ns) => {
      let el = root && root.isConnected ? root : document.querySelector(selector);
      if (!el) throw new Error(`render.js: mount point ${selector} not found`);
      if (el.localName !== tag || (el.namespaceURI || '') !== (ns || el.namespaceURI || '')) {
        const fresh = create(tag, ns);
        el.replaceWith(fresh);
        el = fresh;
      }
      while (el.attributes.length > 0) el.removeAttribute(el.attributes[0].name);
      el.replaceChildren();
      nodes = [];
      listeners = [];
      root = el;
      nodes[id] = el;
    };

    // apply runs the first length bytes of the buffer and returns the
    // elements the CALLBACK ops asked for, in order.
    const apply = (length) => {
      pos = 0;
      const back = [];
      for (;;) {
        const op = bytes[pos++];
        switch (op) {
          case OP.END:
            if (pos !== length) throw new Error(`render.js: END at ${pos} of ${length} bytes`);
            return back;
          case OP.SYM: { const n = u32(); syms[n] = str(); break; }
          case OP.CLEAR_SYMS: syms = []; break;
          case OP.ADOPT: { const id = u32(), sel = str(), tag = sym(), ns = sym(); adopt(id, sel, tag, ns); break; }
          case OP.ELEMENT: { const id = u32(); nodes[id] = create(sym(), ''); break; }
          case OP.ELEMENT_NS: { const id = u32(), tag = sym(); nodes[id] = create(tag, sym()); break; }
          case OP.TEXT: { const id = u32(); nodes[id] = document.createTextNode(str()); break; }
          case OP.COMMENT: { const id = u32(); nodes[id] = document.createComment(str()); break; }
          case OP.SET_ATTR: { const el = node(), k = sym(); el.setAttribute(k, str()); break; }
          case OP.SET_ATTR_NS: { const el = node(), ns = sym(), k = sym(); el.setAttributeNS(ns, k, str()); break; }
          case OP.DEL_ATTR: { const el = node(); el.removeAttribute(sym()); break; }
          case OP.DEL_ATTR_NS: { const el = node(), ns = sym(); el.removeAttributeNS(ns, sym()); break; }
          case OP.CONTENT: { const el = node(); content(el, str()); break; }
          case OP.SET_TEXT: { const n = node(); n.nodeValue = str(); break; }
          case OP.APPEND: { const p = node(); p.appendChild(node()); break; }
          case OP.INSERT: { const p = node(), c = node(); p.insertBefore(c, node()); break; }
          case OP.REMOVE: { const id = u32(); nodes[id]?.remove(); forget(id); break; }
          case OP.FREE: forget(u32()); break;
          case OP.LISTEN: { const id = u32(), el = nodes[id], slot = u32(), type = sym(); listen(el, id, slot, type, u32()); break; }
          case OP.UNLISTEN: { const id = u32(); unlisten(nodes[id], id, u32()); break; }
          case OP.CALLBACK: back.push(node()); break;
          case OP.PROP: { const el = node(), k = sym(); el[k] = JSON.parse(str()); break; }
          default:
            throw new Error(`render.js: unknown op ${op} at byte ${pos - 1}`);
        }
      }
    };

    return Object.freeze({
      // create makes another renderer, with state of its own, for the
      // element mount: one per createRingscope instance.
      create: renderer,
      apply,
      get buffer() { return bytes; },
      // grow gives Go a larger buffer for a render that does not fit.
      grow(n) {
        bytes = new Uint8Array(Math.max(n, bytes.length * 2));
        return bytes;
      },
      get root() { return root; },
      // rendered resolves once the first render made the root the
      // dashboard (class rs-dashboard): until then the root is the empty
      // mount point, which the wasm's mount moves all the same, so the
      // JS mount() waits on this. It rejects after 10 s, or once gone()
      // says the program ended.
      async rendered(gone = () => false) {
        const t0 = performance.now();
        while (!root?.classList?.contains('rs-dashboard')) {
          if (gone()) throw new Error('mount: this ringscope instance was disposed');
          if (performance.now() - t0 > 10_000) throw new Error('mount: the dashboard did not render in 10 s');
          await new Promise((r) => setTimeout(r, 10));
        }
      },
      // The wasm sets its handler once; a page script cannot take it over.
      setEventHandler(fn) { if (onEvent === null && typeof fn === 'function') onEvent = fn; },
    });
  }

  globalThis.ringscopeRender = renderer();
})();
