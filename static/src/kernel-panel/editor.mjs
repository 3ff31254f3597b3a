// The WGSL editor of the Kernel panel: CodeMirror 6 with the WGSL grammar
// of @iizukak/codemirror-lang-wgsl, and compile errors shown inline as
// lint diagnostics at the user's own line and column (the diagnostics of
// a rejected ringscope.open, docs/OPCODES.md §3).
import { EditorView, minimalSetup } from 'codemirror';
import { EditorState } from '@codemirror/state';
import { keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter } from '@codemirror/view';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { indentWithTab } from '@codemirror/commands';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { wgsl } from '@iizukak/codemirror-lang-wgsl';

// The editor lives in a shadow root of host: CodeMirror's styles
// (style-mod) then go into constructed stylesheets (adoptedStyleSheets),
// which the page's CSP (style-src 'self') allows, where in the document
// they would be <style> elements, which it refuses.
// theme follows the page's dark palette (static/style.css's variables
// reach into the shadow root: custom properties inherit).
const theme = EditorView.theme({
  '&': { color: 'var(--fg, #d6dde6)', backgroundColor: 'var(--bg-inset, #0a0d10)', fontSize: '13px', minHeight: '180px' },
  '.cm-content': { fontFamily: 'var(--font-mono, monospace)', caretColor: 'var(--fg, #d6dde6)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-panel, #141920)', color: 'var(--fg-faint, #5c6775)', borderRight: '1px solid var(--border, #252d38)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'rgba(88, 166, 255, 0.07)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg, #d6dde6)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'rgba(88, 166, 255, 0.25)' },
}, { dark: true });

export class WGSLEditor {
  constructor(host, onChange) {
    this.onChange = onChange;
    const shadow = host.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    shadow.append(parent);
    this.view = new EditorView({ parent, root: shadow, state: this.#state('') });
  }

  #state(doc) {
    return EditorState.create({
      doc,
      extensions: [
        // minimalSetup (history, highlighting, default keys) and what
        // editing code needs; basicSetup's autocompletion and search
        // would triple the bundle.
        minimalSetup,
        lineNumbers(),
        highlightActiveLine(),
        highlightActiveLineGutter(),
        bracketMatching(),
        indentOnInput(),
        keymap.of([indentWithTab]),
        wgsl(),
        lintGutter(),
        theme,
        EditorView.updateListener.of((u) => {
          if (u.docChanged) this.onChange?.(u.state.doc.toString());
        }),
      ],
    });
  }

  get text() {
    return this.view.state.doc.toString();
  }

  // load replaces the document (and its undo history) with text.
  load(text) {
    this.view.setState(this.#state(text));
  }

  // showDiagnostics marks each {line, column, type, message} in the
  // document; lines past its end are clamped to the last one.
  showDiagnostics(list) {
    const doc = this.view.state.doc;
    const marks = list.map((d) => {
      const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
      const from = Math.min(line.from + Math.max(d.column - 1, 0), line.to);
      return {
        from,
        to: Math.min(Math.max(from + 1, from), line.to),
        severity: d.type === 'warning' ? 'warning' : d.type === 'info' ? 'info' : 'error',
        message: d.message,
      };
    });
    this.view.dispatch(setDiagnostics(this.view.state, marks));
    if (marks.length > 0) {
      this.view.dispatch({ selection: { anchor: marks[0].from }, scrollIntoView: true });
    }
  }

  clearDiagnostics() {
    this.view.dispatch(setDiagnostics(this.view.state, []));
  }
}
