// The faults of the fault-injection harness (tests/e2e/chaos.js, docs/SERVER.md "The
// fault-injection harness"). Each takes the cluster and the generator, does its harm, waits and
// mends it.
'use strict';
const { httpGet } = require('./client');
const { sleep } = require('./chaos-cluster');

const FAULTS = {
  async pause(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    cl.pause(n);
    await sleep(cl.lease * 1000 * (1.3 + r()));
    cl.resume(n);
  },
  // the paused owner woken, then the server that took its tables over killed (issue 45's first
  // case): the woken one may take them back
  async 'pause-kill'(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    cl.pause(n);
    await sleep(cl.lease * 1000 * (1.3 + r()));
    cl.resume(n);
    await sleep(r.int(200, 1500));
    const other = r.pick(cl.live().filter((x) => x !== n));
    if (!other) return;
    await cl.killNode(other);
    await sleep(cl.lease * 1000 * (1.2 + r()));
    await cl.restartNode(other);
  },
  async kill(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    await cl.killNode(n);
    await sleep(r.int(500, cl.lease * 1500));
    await cl.restartNode(n);
  },
  async 'pg-outage'(cl, r) {
    cl.stopPg();
    cl.note('PostgreSQL stopped');
    await sleep(cl.lease * 1000 * (1.3 + r()));
    cl.startPg();
    cl.note('PostgreSQL started');
  },
  async 'pg-restart'(cl) {
    cl.stopPg();
    cl.startPg();
    cl.note('PostgreSQL restarted');
  },
  async 'nats-outage'(cl, r) {
    await cl.stopNats();
    cl.note('nats-server stopped');
    await sleep(r.int(1000, 6000));
    await cl.startNats();
    cl.note('nats-server started');
  },
  async 'proxy-kill'(cl, r) {
    cl.killProxy();
    await sleep(r.int(200, 2000));
    cl.restartProxy();
  },
  async clock(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    cl.clock(n, r.pick([-1, 1]) * r.int(cl.lease, cl.lease * 10));
    await sleep(r.int(2000, cl.lease * 3000));
    cl.clock(n, 0);
  },
  async duplicate(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    const dup = await cl.startDuplicate(n);
    if (!dup) return;
    await sleep(cl.lease * 1000 * 2);
    const h = await httpGet(dup.port, '/healthz').catch((e) => ({ status: 0, body: e.message }));
    const first = await cl.health(n);
    cl.note(`the second ${n}: /healthz ${h.status} ${h.body.split('\n')[0]}; the first: ${first.status}`);
    await cl.kill(dup.proc);
    cl.extra = cl.extra.filter((d) => d !== dup);
    cl.note(`the second ${n} killed`);
  },
};

module.exports = { FAULTS };
