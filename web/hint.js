// A hint during offline play, on request: the strongest computer level's best moves from the
// player's own view (the state's history string, hidden pieces written x: nothing hidden goes
// in), each with a sentence saying why, and a count of the pieces not yet seen, by kind.
// Online games are rated, so the hint is offered only offline: it listens to the states
// offline.js hands the table (goitaClient.receive), never to the server's.
'use strict';

(() => {
  const client = window.goitaClient;
  const $ = (id) => document.getElementById(id);
  const LEVEL = 'master'; // the strongest level (docs/PLAYERS.md)
  const TEXT = {
    ja: { hint: 'ヒント', thinking: '考えています…', unseen: 'まだ見ていない駒', why: 'ヒント（{level}の読み）',
      pass: 'パス', lead: '{b} を伏せて {a} で攻める', answer: '{b} で受けて {a} で攻める', go: 'そのまま打つ', redeal: '配り直す',
      value: '見込み {v} 点 · {n} 通り中 {k} 通りで最善',
      finish: '上がり: {points} 点', pair_left: '{p}の対を残し、倍の上がり（{points} 点）を狙えます',
      safe_attack: '相手は{p}を受けられそうにありません（{pct}%）', takes_lead: '残り {n} 枚の{seat}から攻めを奪います',
      partner_attack: '味方の{p}の攻めを通します', partner_answers: '味方が{p}を受けられそうです（{pct}%）',
      keeps: '{p}を後のために残します', no_reason: '読みの値がいちばん高い手です', failed: 'ヒントを出せません: {e}' },
    en: { hint: 'Hint', thinking: 'Thinking…', unseen: 'Not yet seen', why: 'Hint (the {level} level\'s reading)',
      pass: 'Pass', lead: 'lead {b} face-down, attack with {a}', answer: 'block with {b}, attack with {a}', go: 'play the round',
      redeal: 'redeal', value: 'expected {v} points · best in {k} of {n} deals',
      finish: 'goes out: {points} points', pair_left: 'keeps a pair of {p} for a doubled finish ({points} points)',
      safe_attack: 'the opponents likely cannot answer {p} ({pct}%)', takes_lead: 'takes the lead from {seat}, who has {n} pieces left',
      partner_attack: 'lets your partner\'s {p} attack stand', partner_answers: 'your partner likely can answer {p} ({pct}%)',
      keeps: 'keeps your {p} for later', no_reason: 'the highest value of the reading', failed: 'No hint: {e}' },
  };
  const tr = (key, vars) => TEXT[client.lang()][key].replace(/\{(\w+)\}/g, (_, k) => String((vars || {})[k]));
  const make = (tag, props) => Object.assign(document.createElement(tag), props);

  let worker = null, nextId = 1;
  const pending = new Map();
  function rpc(op, args) {
    if (!worker) {
      worker = new Worker('hint-worker.js');
      worker.onmessage = (e) => {
        const p = pending.get(e.data.id);
        if (!p) return;
        pending.delete(e.data.id);
        if (e.data.error) p.reject(new Error(e.data.error)); else p.resolve(e.data.result);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        for (const p of pending.values()) p.reject(new Error(e.message || 'the engine did not load'));
        pending.clear();
        worker = null;
      };
    }
    const id = nextId++;
    return new Promise((resolve, reject) => { pending.set(id, { resolve, reject }); worker.postMessage({ id, op, args }); });
  }

  let last = null;  // the last state shown: { msg, hint } (hint: the answer for this position)

  // A move in words: its pieces by kanji.
  function moveText(token) {
    if (token[1] === 'p') return tr('pass');
    if (token[1] === 'g') return tr('go');
    if (token[1] === 'r') return tr('redeal');
    const leading = !last || last.msg.game.attack === 0;
    return tr(leading ? 'lead' : 'answer', { b: KANJI[token[1]], a: KANJI[token[2]] });
  }

  // One reason as a sentence.
  function reasonText(r) {
    const seat = r.seat >= 0 && last ? last.msg.seats[r.seat].name : '';
    return tr(r.kind, { p: KANJI[r.piece], points: r.count, n: r.count, pct: Math.round(r.chance * 100), seat });
  }

  // The panel under the controls: the unseen count, the button and the hint.
  function panel() {
    let box = $('hint-panel');
    if (box) return box;
    box = make('section', { id: 'hint-panel', className: 'panel hint-panel' });
    const unseen = make('div', { id: 'hint-unseen', className: 'hint-unseen' });
    const button = make('button', { id: 'hint-button', type: 'button' });
    button.addEventListener('click', ask);
    const out = make('div', { id: 'hint-moves', className: 'hint-moves' });
    out.setAttribute('aria-live', 'polite');
    box.append(unseen, button, out);
    const controls = $('controls');
    if (controls) controls.after(box); else $('table').append(box);
    return box;
  }

  function drawUnseen(counts) {
    const box = $('hint-unseen');
    if (!box) return;
    const list = make('ul', { className: 'hint-counts' });
    counts.forEach((n, i) => {
      const li = make('li', { className: n ? '' : 'none' });
      li.append(tile(i + 1, { label: `${pieceName(i + 1)}: ${n}` }), make('span', { className: 'hint-count', textContent: String(n) }));
      list.append(li);
    });
    box.replaceChildren(make('h3', { textContent: tr('unseen') }), list);
  }

  function drawHint() {
    const out = $('hint-moves');
    if (!out || !last) return;
    out.replaceChildren();
    if (!last.hint) return;
    if (last.hint.error) { out.append(make('p', { className: 'muted', textContent: tr('failed', { e: last.hint.error }) })); return; }
    out.append(make('h3', { textContent: tr('why', { level: client.t('level_' + LEVEL) }) }));
    const list = make('ol', { className: 'hint-list' });
    for (const m of last.hint.moves) {
      const li = make('li', { className: 'hint-move' });
      li.dataset.move = m.move;
      const v = (m.value > 0 ? '+' : '') + m.value.toFixed(1);
      li.append(make('strong', { textContent: moveText(m.move) }),
        make('span', { className: 'muted hint-value', textContent: ` ${tr('value', { v, k: m.agree, n: m.deals })}` }));
      const why = make('ul', { className: 'hint-reasons' });
      const reasons = m.reasons.length ? m.reasons.map(reasonText) : [tr('no_reason')];
      for (const text of reasons) why.append(make('li', { textContent: text }));
      li.append(why);
      list.append(li);
    }
    out.append(list);
  }

  // Labels in the page's language, the button enabled on the player's own turn.
  function refresh() {
    const button = $('hint-button');
    if (!button || !last) return;
    const g = last.msg.game;
    button.textContent = last.hint === 'asking' ? tr('thinking') : tr('hint');
    button.disabled = !(g.turn === last.msg.seat && g.phase !== 'over' && (g.legal || []).length > 1) || last.hint === 'asking';
    if (last.counts) drawUnseen(last.counts);
    const unseen = $('hint-unseen');
    if (unseen) unseen.setAttribute('aria-busy', String(!last.counted));
    if (last.hint !== 'asking') drawHint();
  }

  async function ask() {
    if (!last || last.hint) return;
    const mine = last;
    mine.hint = 'asking';
    refresh();
    let hint;
    try {
      hint = await rpc('hint', [mine.msg.rules, mine.msg.game.history, LEVEL, '1']);
    } catch (e) { hint = { error: e.message }; }
    if (last !== mine) return;
    mine.hint = hint;
    refresh();
  }

  // A state of the offline table: a new position forgets the old hint and counts again.
  // Offline play is at #offline with the body marked; another page drawing the table from its
  // own states (the tutorial's exercises) gets no hint.
  const offlinePlay = () => document.body.classList.contains('offline-play') && location.hash === '#offline';

  async function update(msg) {
    if (!offlinePlay() || msg.seat === undefined || msg.seat < 0) return;
    const g = msg.game;
    if (last && last.msg.game.history === g.history) { last.msg = msg; refresh(); return; }
    panel();
    // the last position's counts stay in view (marked busy) until this one's are counted
    const mine = { msg, hint: null, counts: last && last.counts, counted: false };
    last = mine;
    refresh();
    if (!g.history || g.phase === 'over') return;
    try {
      const { unseen } = await rpc('unseen', [msg.rules, g.history]);
      if (last === mine) { mine.counts = unseen; mine.counted = true; refresh(); }
    } catch (e) { console.error(e); }
  }

  // Off the offline table (leaving it, the lobby, online play): no panel.
  function clear() {
    const box = $('hint-panel');
    if (box && !offlinePlay()) { box.remove(); last = null; }
  }

  const receive = client.receive;
  client.receive = (msg) => {
    receive(msg);
    if (msg.type === 'state') update(msg);
  };
  new MutationObserver(clear).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  window.addEventListener('hashchange', clear);
  $('lang').addEventListener('click', () => setTimeout(refresh));
})();
