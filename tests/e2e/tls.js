// goita serve over TLS (--tls-cert, --tls-key) with a self-signed certificate: the page over
// https and a hello over wss, with Node's ws (certificate checks off: it is self-signed).
// Usage: node tls.js GOITA PORT DB CERT KEY
'use strict';
const { spawn } = require('child_process');
const https = require('https');
const path = require('path');
const WebSocket = require(path.join(__dirname, '../../tools/e2e/node_modules/ws'));

const [goita, port, db, cert, key] = process.argv.slice(2);
const fail = (why) => { console.error('tls: ' + why); process.exit(1); };
const server = spawn(goita, ['serve', '--port', port, '--db', db, '--tls-cert', cert, '--tls-key', key], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill('SIGKILL'));
setTimeout(() => fail('no answer within 10 s'), 10000).unref();

(async () => {
  await new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => { if (/goita serve: https:\/\//.test(d.toString())) resolve(); });
    server.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const page = await new Promise((resolve, reject) => {
    https.get(`https://127.0.0.1:${port}/`, { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });
  if (page.status !== 200 || !/<html/i.test(page.body)) fail(`https page: ${page.status}`);
  const ws = new WebSocket(`wss://127.0.0.1:${port}/`, 'goita', { rejectUnauthorized: false });
  const welcome = await new Promise((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', name: 'Tia' })));
    ws.on('message', (d) => resolve(JSON.parse(d.toString())));
    ws.on('error', reject);
  });
  if (welcome.type !== 'welcome' || welcome.player.name !== 'Tia') fail(`wss hello: ${JSON.stringify(welcome)}`);
  const plain = await new Promise((resolve) => {
    const p = new WebSocket(`ws://127.0.0.1:${port}/`, 'goita');
    p.on('open', () => resolve('opened'));
    p.on('error', () => resolve('refused'));
    p.on('close', () => resolve('refused'));
  });
  if (plain !== 'refused') fail('a plain ws:// connection was accepted on the TLS port');
  ws.close();
  console.log('tls: the page over https and a hello over wss with a self-signed certificate');
  process.exit(0);
})().catch((e) => fail(e.stack || String(e)));
