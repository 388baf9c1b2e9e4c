// Diagnostic (not part of npm run bench): the records of 34 kinds of data posted both ways between a host and a
// cross-origin iframe (and self-posts, ports, and a page getter on Object.prototype.source that no read of ours may
// run), per build of the Firefox extension, compared record by record (times, seqs and ids left out).
// Usage: [MODE=receive-only|full] node bench/diag/firefox-same.mjs <build dir A> <build dir B>
const { launchFirefox } = await import('../page-overhead-firefox.mjs');
const { serve } = await import('../page-overhead.mjs');
const mode = process.env.MODE ?? 'receive-only';
const h = await serve('127.0.0.1');
const e = await serve('localhost');
const CASES = `(() => {
  const o = { k: 1 };
  const cyc = { a: 1 }; cyc.self = cyc;
  let deep = 1; for (let i = 0; i < 70; i++) deep = [deep];
  const big = 'y'.repeat(70000);
  return [
    { source: 'svc-embed', direction: 'event', type: 'svc:event:ready', payload: { a: [1, 2, { b: 'c' }] } },
    'a string', 42, -0, null, undefined, true, Number.NaN, Infinity, [1, , 3], [1, 2, 3],
    { $ei: 'x' }, { nested: { $ei: 1 } }, new Date(5), new Map([[1, 2]]), new Set([1]), /re/g,
    new Uint8Array([1, 2]), new ArrayBuffer(4), { a: o, b: o }, cyc, deep, { big }, { source: 'svc-embed', big },
    big, { toJSON: 'not a function' }, new Error('boom'), { n: 1n }, Object.create(null), { u: undefined },
    { 'weird key "\\u2028': '\\u2028 \\ud800' }, [[], {}], { x: -0 },
  ];
})()`;
const page = (other) => `<!doctype html><script>
  window.cases = () => ${CASES};
  window.send = (target, origin) => { for (const c of cases()) target.postMessage(c, origin); };
  window.withPorts = (target, origin) => { const ch = new MessageChannel(); target.postMessage({ p: 1 }, origin, [ch.port1, new MessageChannel().port1]); };
  window.self1 = () => { for (const c of cases().slice(0, 8)) postMessage(c, '*'); };
  addEventListener('message', (e) => { if (e.data && typeof e.data === 'object' && !Array.isArray(e.data) && Object.getPrototypeOf(e.data) === Object.prototype) { try { e.data.changedByPage = 1; } catch {} } });
</script>${other ? `<iframe src="${other}/embed/x"></iframe>` : ''}`;
h.set(page(e.origin));
e.set(page(null));
const out = {};
for (const ext of process.argv.slice(2)) {
  const b = await launchFirefox(true, { sites: [h.origin, e.origin], mode }, { fission: true, ext });
  try {
    const p = await b.browser.newPage();
    await p.goto(`${h.origin}/`, { waitUntil: 'load' });
    await new Promise((r) => setTimeout(r, 500));
    const fr = p.frames().find((f) => f.url().startsWith(e.origin));
    await p.evaluate((o) => {
      send(frames[0], o);
      withPorts(frames[0], o);
      self1();
    }, e.origin);
    await fr.evaluate((o) => {
      send(parent, o);
      withPorts(parent, o);
      self1();
    }, h.origin);
    await new Promise((r) => setTimeout(r, 1500));
    // a page that changes its prototypes: the fast path must decline, the encoder still never runs page code
    await p.evaluate(() => {
      Object.defineProperty(Object.prototype, 'source', {
        get() {
          window.ran = (window.ran || 0) + 1;
          return 'svc-embed';
        },
        configurable: true,
      });
    });
    await fr.evaluate((o) => {
      send(parent, o);
    }, h.origin);
    await new Promise((r) => setTimeout(r, 1500));
    const ran = await p.evaluate(() => window.ran);
    const recs = await b.inBackground(
      `const ids = await bg.embedInspector.tabIds(); const r = []; for (const id of ids) { await bg.embedInspector.settle(id); r.push(...await bg.embedInspector.records(id)); } return JSON.stringify(r);`,
    );
    // (each frame's records as a sorted list: in full mode a post's place among the deliveries, and so the seqs a
    // pairing names, follow the timing of the run)
    const rs = JSON.parse(recs)
      .map(({ time, seq, id, frameId, pairedWith, ...r }) => JSON.stringify(r))
      .sort()
      .map((r) => JSON.parse(r));
    out[ext] = rs;
    console.log(ext, mode, 'records', rs.length, 'page getter ran', ran ?? 0);
  } finally {
    await b.close();
  }
}
const [a, c] = Object.values(out);
const strip = (r) => JSON.stringify(r);
let diff = 0;
for (let i = 0; i < Math.max(a.length, c.length); i++) {
  if (strip(a[i]) !== strip(c[i])) {
    diff++;
    if (diff < 6) {
      // from a little before where the two records part
      const [x, y] = [strip(a[i]) ?? '', strip(c[i]) ?? ''];
      let at = 0;
      while (at < x.length && x[at] === y[at]) {
        at++;
      }
      const from = Math.max(0, at - 150);
      console.log('DIFF', i, `at ${at}:`, x.slice(from, at + 250), '\n    ', y.slice(from, at + 250));
    }
  }
}
console.log('differences', diff, 'of', a.length, c.length);
if (diff || a.length !== c.length) {
  process.exitCode = 1;
}
console.log('sample', JSON.stringify(a.slice(0, 3)).slice(0, 600));
h.server.close();
e.server.close();
