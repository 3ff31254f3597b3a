// Serves app/ on the port given, as the app's own server would.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const dir = new URL('./app/', import.meta.url);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wgsl': 'text/plain' };
createServer(async (req, res) => {
  const p = new URL(req.url, 'http://x').pathname.replace(/^\/$/, '/index.html');
  try {
    const body = await readFile(new URL(`.${path.posix.normalize(p)}`, dir));
    res.writeHead(200, { 'Content-Type': types[path.extname(p)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}).listen(Number(process.argv[2]), '127.0.0.1');
