// The checks every screen of the browser client passes (screens.js): no horizontal overflow at
// phone widths 360 to 430 px nor at a desktop's, no two pieces of text drawn over each other,
// no English word left in Japanese mode, and no serious or critical axe-core violation; then
// its screenshots, desktop in English and phone in Japanese.
'use strict';
const fs = require('fs');
const path = require('path');

const axeSource = fs.readFileSync(path.join(__dirname, '../../tools/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
const WIDTHS = [{ width: 1280, height: 900 }, { width: 430, height: 932 }, { width: 390, height: 844 }, { width: 360, height: 740 }];
// Words that stay as they are in Japanese: the game's and the formats' names, the keys, the
// language switch (it names English in English), and
// the players' names the tests give.
const KEEP = new Set(['English', 'Goita', 'Shogi', 'JSON', 'TXT', 'Home', 'End', 'PageUp', 'PageDown', 'Ann', 'Host']);

// Every visible text box on the page: its rectangle and its text (one per text node line), cut
// to what the scrolling boxes around it show.
function textBoxes() {
  const out = [];
  const clip = (r, node) => {
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    for (let a = node; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      box = { l: Math.max(box.l, c.left), t: Math.max(box.t, c.top), r: Math.min(box.r, c.right), b: Math.min(box.b, c.bottom) };
    }
    return box;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const parent = n.parentElement;
    if (!parent || parent.closest('[hidden], select, option, script, style')) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      const c = clip(r, parent);
      if (c.r - c.l > 0.5 && c.b - c.t > 0.5) out.push({ x: c.l, y: c.t, w: c.r - c.l, h: c.b - c.t, text: n.textContent.trim().slice(0, 40) });
    }
  }
  return out;
}

// The pairs of text boxes that overlap by more than a sliver.
function overlaps(boxes) {
  const bad = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w > 2 && h > 2) bad.push(`"${a.text}" over "${b.text}"`);
    }
  }
  return bad;
}

// The screen's layout checks at one viewport: overflow and overlapping text.
async function checkLayout(page, name, size, fail) {
  await page.setViewportSize(size);
  await page.waitForTimeout(60);
  const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  if (wide.scroll > wide.inner) fail(`${name} at ${size.width} px: the page is ${wide.scroll} px wide`);
  const boxes = await page.evaluate(`(${textBoxes.toString()})()`);
  const bad = overlaps(boxes);
  if (bad.length) fail(`${name} at ${size.width} px: overlapping text: ${bad.slice(0, 3).join('; ')}`);
}

// axe-core's serious and critical violations on the page as it is.
async function checkAxe(page, name, fail) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`);
  });
  if (found.length) fail(`${name}: axe-core: ${found.join('; ')}`);
}

// English words on a page switched to Japanese.
async function checkJapanese(page, name, fail) {
  const words = await page.evaluate(`(${textBoxes.toString()})().map((b) => b.text)`);
  const english = [];
  for (const line of words) for (const w of line.match(/[A-Za-z]{2,}/g) || []) if (!KEEP.has(w)) english.push(`${w} (in "${line}")`);
  if (english.length) fail(`${name} in Japanese: untranslated ${english.slice(0, 5).join(', ')}`);
}

// Every check of one screen, in English then in Japanese, and its screenshots when asked.
async function checkScreen(page, name, shots, fail) {
  for (const size of WIDTHS) await checkLayout(page, name, size, fail);
  await checkAxe(page, name, fail);
  await page.setViewportSize(WIDTHS[0]);
  if (shots) await page.screenshot({ path: path.join(shots, `${name}-desktop.png`) });
  await page.click('#lang');
  for (const size of [WIDTHS[0], WIDTHS[2]]) {
    await checkLayout(page, `${name} (ja)`, size, fail);
    await checkJapanese(page, name, fail);
  }
  await checkAxe(page, `${name} (ja)`, fail);
  if (shots) await page.screenshot({ path: path.join(shots, `${name}-phone.png`), fullPage: true });
  await page.click('#lang');
  await page.setViewportSize(WIDTHS[0]);
}

module.exports = { checkScreen };
