// devtools-trace.cjs: a real consumer of ringscope's trace export. It
// parses a Chrome trace-event file with Chrome DevTools' own trace parser,
// SDK.TracingModel of the chrome-devtools-frontend package (loaded the way
// devtools-timeline-model loads it, in a vm context of its own), and
// returns the processes, threads and events DevTools made of it. Perfetto's
// trace processor is not installable here (docs/TRACE.md says why).
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

let parse;

function parser() {
  if (parse) return parse;
  const dir = path.dirname(require.resolve('devtools-timeline-model'));
  const ctx = vm.createContext({ require, global, console, __dirname: dir });
  new vm.Script(fs.readFileSync(path.join(dir, 'lib/timeline-model.js'), 'utf8')).runInContext(ctx);
  parse = vm.runInContext(`(function (events) {
    const m = new SDK.TracingModel(new Bindings.TempFileBackingStorage('tracing'));
    m.setEventsForTest(events);
    return m;
  })`, ctx);
  return parse;
}

// load parses the trace JSON text into [{pid, name, threads: [{tid, name,
// events: [{cat, name, ph, ts, dur, args}]}]}], as DevTools sees it.
function load(text) {
  const trace = JSON.parse(text);
  const model = parser()(trace.traceEvents || trace);
  return model.sortedProcesses().map((p) => ({
    pid: p.id(),
    name: p.name(),
    threads: p.sortedThreads().map((t) => ({
      tid: t.id(),
      name: t.name(),
      events: t.events().map((e) => ({ cat: e.categoriesString, name: e.name, ph: e.phase, ts: e.startTime, dur: e.duration, args: e.args })),
    })),
  }));
}

module.exports = { load };
