// Measures how long the offline page takes to load (docs/BENCHMARKS.md): from navigation to
// the first table drawn with the WebAssembly engine ready (offline.js marks it), in fresh
// Chromium contexts, so nothing is cached. A measurement, not a test.
// Usage: node offline-load.js URL [LOADS]
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));

(async () => {
  const url = process.argv[2];
  const loads = Number(process.argv[3] || 10);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const times = [];
  for (let i = 0; i <= loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(url + '#offline');
    await page.waitForFunction(() => performance.getEntriesByName('goita-offline-drawn').length > 0);
    const ms = await page.evaluate(() => performance.getEntriesByName('goita-offline-drawn')[0].startTime);
    if (i > 0) times.push(ms); // the first load warms Chromium itself up
    await context.close();
  }
  await browser.close();
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`offline load: ${loads} loads  median ${median.toFixed(0)} ms  min ${times[0].toFixed(0)} ms  max ${times[times.length - 1].toFixed(0)} ms`);
})();
