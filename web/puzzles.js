// Puzzles made by the exact solver (goita puzzles, web/puzzles.json): positions of computer
// games where, with every hand shown, exactly one move keeps the most points. A puzzle of the
// day, a list by difficulty, each solved by clicking a move; the solution is the winning line.
// Opened at #puzzles; it needs only the static file, no server. Solved puzzles are remembered
// in this browser (localStorage goita.puzzles.solved).
'use strict';

(() => {
  const client = window.goitaClient;
  const $ = (id) => document.getElementById(id);
  const TEXT = {
    ja: { puzzles: '詰めごいた', back: 'ロビーへ', today: '今日の問題', open: '解く', by_level: '難易度別',
      level: '難易度 {d}', puzzle: '問題 {id}', solved_mark: '解いた', loading: '読み込み中…',
      task_win: '{seat}の番です。すべての手駒が見えています。勝てる手はただ一つ: 見つけてください。',
      task_lose: '{seat}の番です。すべての手駒が見えています。失点を最も小さくする手はただ一つ: 見つけてください。',
      seat: '席 {n}', you: '手番', partner: '味方', hand: '手駒', played: '場', attack: '受ける攻め: {p}（{seat}）',
      lead: '攻めを出す番です（伏せてから攻める）', your_move: 'あなたの手', pass: 'パス',
      lead_move: '{b} を伏せて {a}', answer_move: '{b} で受けて {a}',
      right_win: '正解! この手だけが {v} 点を取ります（次善は {s} 点）。', right_lose: '正解! この手だけが失点を {v} 点に抑えます（次善は {s} 点）。', wrong: 'この手は {v} 点です。もっと良い手があります。',
      show: '答えを見る', line_win: '勝ち筋', line_lose: '最善の進行', points: '{v} 点', failed: '問題を読み込めません: {e}',
      next: '次の問題' },
    en: { puzzles: 'Puzzles', back: 'Lobby', today: 'Puzzle of the day', open: 'Solve', by_level: 'By difficulty',
      level: 'Difficulty {d}', puzzle: 'Puzzle {id}', solved_mark: 'solved', loading: 'Loading…',
      task_win: '{seat} to move. Every hand is shown. Exactly one move wins: find it.',
      task_lose: '{seat} to move. Every hand is shown. Exactly one move loses the least: find it.',
      seat: 'Seat {n}', you: 'to move', partner: 'partner', hand: 'hand', played: 'played', attack: 'Attack to answer: {p} (by {seat})',
      lead: 'A lead: place one piece face-down, then attack', your_move: 'Your move', pass: 'Pass',
      lead_move: '{b} face-down, attack {a}', answer_move: 'block {b}, attack {a}',
      right_win: 'Right! Only this move wins {v} points (the next best gives {s}).',
      right_lose: 'Right! Only this move keeps the loss to {v} points (the next best gives {s}).', wrong: 'That move gives {v} points. There is a better one.',
      show: 'Show the solution', line_win: 'The winning line', line_lose: 'The best line', points: '{v} points', failed: 'Cannot load the puzzles: {e}',
      next: 'Next puzzle' },
  };
  const tr = (key, vars) => TEXT[client.lang()][key].replace(/\{(\w+)\}/g, (_, k) => String((vars || {})[k]));
  const make = (tag, props, ...children) => { const e = Object.assign(document.createElement(tag), props); e.append(...children); return e; };

  let set = null, current = null, answered = null; // answered: { move, right } or 'shown'
  const solved = () => new Set(JSON.parse(localStorage.getItem('goita.puzzles.solved') || '[]'));
  const markSolved = (id) => localStorage.setItem('goita.puzzles.solved', JSON.stringify([...solved().add(id)]));

  // Today's puzzle: the same for everyone on a UTC day.
  const todayIndex = () => Math.floor(Date.now() / 86400000) % set.puzzles.length;
  const seatName = (p, s) => tr('seat', { n: s + 1 }) + (s === p.turn ? ` (${tr('you')})` : s === (p.turn + 2) % 4 ? ` (${tr('partner')})` : '');

  function moveText(p, token) {
    if (token[1] === 'p') return tr('pass');
    return tr(p.attack === 0 ? 'lead_move' : 'answer_move', { b: KANJI[token[1]], a: KANJI[token[2]] });
  }
  // A move of the line: whose and what (kings 8 as the page writes them).
  const lineText = (p, token) => `${tr('seat', { n: Number(token[0]) })}: ${token[1] === 'p' ? tr('pass') : `${KANJI[token[1]]}→${KANJI[token[2]]}`}`;

  function page() {
    let main = $('puzzles');
    if (main) return main;
    main = make('main', { id: 'puzzles', hidden: true });
    $('table').before(main);
    return main;
  }

  // The index: the puzzle of the day and the list by difficulty.
  function drawIndex(main) {
    const done = solved();
    const today = set.puzzles[todayIndex()];
    const todayBox = make('section', { className: 'panel' }, make('h2', { textContent: tr('today') }),
      make('p', {}, `${tr('puzzle', { id: today.id })} · ${tr('level', { d: today.difficulty })} `,
        make('button', { type: 'button', id: 'puzzle-today', className: 'primary', textContent: tr('open'), onclick: () => openPuzzle(today) })));
    const levels = make('section', { className: 'panel', id: 'puzzle-levels' }, make('h2', { textContent: tr('by_level') }));
    for (let d = 1; d <= 5; d++) {
      const list = set.puzzles.filter((p) => p.difficulty === d);
      if (!list.length) continue;
      const row = make('div', { className: 'puzzle-row' }, make('h3', { textContent: tr('level', { d }) }));
      for (const p of list) {
        const b = make('button', { type: 'button', className: 'puzzle-pick' + (done.has(p.id) ? ' solved' : ''), textContent: String(p.id),
          onclick: () => openPuzzle(p) });
        b.dataset.id = String(p.id);
        b.setAttribute('aria-label', tr('puzzle', { id: p.id }) + (done.has(p.id) ? ` (${tr('solved_mark')})` : ''));
        row.append(b);
      }
      levels.append(row);
    }
    main.append(todayBox, levels);
  }

  // One seat: its hand (every piece shown) and what it has played.
  function seatBox(p, s) {
    const hand = make('div', { className: 'puzzle-hand' }, ...[...p.hands[s]].map((m) => tile(m)));
    const row = p.rows[s];
    const played = make('div', { className: 'puzzle-played' });
    for (let i = 0; i < row.blocks.length; i++)
      played.append(tile(row.blocks[i], { down: row.face_down[i] === '1' }), tile(row.attacks[i], { attack: true }));
    const box = make('div', { className: 'puzzle-seat' + (s === p.turn ? ' mover' : '') },
      make('h3', { textContent: seatName(p, s) }), make('div', { className: 'muted', textContent: tr('hand') }), hand);
    if (row.blocks.length) box.append(make('div', { className: 'muted', textContent: tr('played') }), played);
    return box;
  }

  function drawPuzzle(main) {
    const p = current;
    const head = make('section', { className: 'panel', id: 'puzzle' },
      make('h2', { textContent: `${tr('puzzle', { id: p.id })} · ${tr('level', { d: p.difficulty })}` }),
      make('p', { id: 'puzzle-task', textContent: tr(p.best > 0 ? 'task_win' : 'task_lose', { seat: seatName(p, p.turn) }) }),
      make('p', { className: 'puzzle-attack', textContent: p.attack ? tr('attack', { p: KANJI[p.attack], seat: seatName(p, p.attacker) }) : tr('lead') }));
    head.dataset.id = String(p.id);
    const seats = make('div', { className: 'puzzle-seats' });
    // the mover first, then the others in turn order
    for (let i = 0; i < 4; i++) seats.append(seatBox(p, (p.turn + i) % 4));
    const moves = make('div', { id: 'puzzle-moves', className: 'puzzle-moves' }, make('h3', { textContent: tr('your_move') }));
    for (const m of p.moves) {
      const b = make('button', { type: 'button', textContent: moveText(p, m.move), disabled: !!answered && (answered === 'shown' || answered.right),
        onclick: () => { answered = { move: m.move, right: m.move === p.answer }; if (answered.right) markSolved(p.id); draw(); } });
      b.dataset.move = m.move;
      if (answered && answered.move === m.move) b.className = answered.right ? 'right' : 'wrong';
      moves.append(b);
    }
    const verdict = make('div', { id: 'puzzle-verdict', className: 'puzzle-verdict' });
    verdict.setAttribute('aria-live', 'polite');
    if (answered && answered !== 'shown' && !answered.right) {
      const value = p.moves.find((m) => m.move === answered.move).value;
      verdict.append(make('p', { className: 'wrong', textContent: tr('wrong', { v: value }) }),
        make('button', { type: 'button', id: 'puzzle-show', textContent: tr('show'), onclick: () => { answered = 'shown'; draw(); } }));
    }
    if (answered && (answered === 'shown' || answered.right)) {
      if (answered.right) verdict.append(make('p', { className: 'right', textContent: tr(p.best > 0 ? 'right_win' : 'right_lose', { v: Math.abs(p.best), s: p.second }) }));
      const line = make('ol', { id: 'puzzle-line', className: 'puzzle-line' }, ...p.line.map((t) => make('li', { textContent: lineText(p, t) })));
      verdict.append(make('h3', { textContent: `${tr(p.best > 0 ? 'line_win' : 'line_lose')} (${tr('points', { v: p.best })})` }), line);
      const next = set.puzzles[(set.puzzles.indexOf(p) + 1) % set.puzzles.length];
      verdict.append(make('button', { type: 'button', id: 'puzzle-next', textContent: tr('next'), onclick: () => openPuzzle(next) }));
    }
    main.append(head, make('section', { className: 'panel' }, seats), make('section', { className: 'panel' }, moves, verdict));
  }

  function draw() {
    const main = page();
    const back = make('button', { type: 'button', id: 'puzzles-back', textContent: tr('back'),
      onclick: () => { if (current) { current = null; draw(); } else location.hash = ''; } });
    main.replaceChildren(make('div', { className: 'bar' }, back, make('h1', { className: 'puzzles-title', textContent: tr('puzzles') })));
    if (!set) { main.append(make('p', { id: 'puzzles-status', textContent: tr('loading') })); return; }
    if (set.error) { main.append(make('p', { id: 'puzzles-status', textContent: tr('failed', { e: set.error }) })); return; }
    if (current) drawPuzzle(main); else drawIndex(main);
  }

  function openPuzzle(p) {
    current = p;
    answered = null;
    draw();
    window.scrollTo(0, 0);
  }

  // Shows the page at #puzzles (after app.js's route has shown the lobby), hides it elsewhere.
  async function route() {
    const main = page();
    if (location.hash !== '#puzzles') { main.hidden = true; return; }
    for (const id of ['lobby', 'table', 'replay']) $(id).hidden = true;
    main.hidden = false;
    draw();
    if (set && !set.error) return;
    try {
      const reply = await fetch('puzzles.json');
      if (!reply.ok) throw new Error(`puzzles.json: ${reply.status}`);
      set = await reply.json();
    } catch (e) { set = { error: e.message }; }
    draw();
  }

  // The lobby's entry.
  function lobbyPanel() {
    const lobby = $('lobby');
    if (!lobby || $('puzzles-panel')) return;
    const h = make('h2'), p = make('p', { className: 'muted' });
    const go = make('button', { type: 'button', id: 'puzzles-open', onclick: () => { location.hash = '#puzzles'; } });
    const fill = () => {
      h.textContent = tr('puzzles');
      p.textContent = client.lang() === 'ja' ? 'すべての手駒が見える局面で、ただ一つの最善手を探します（解法ソルバーが確かめた問題）。'
        : 'Every hand shown, one best move to find: positions from real games, proved by the exact solver.';
      go.textContent = tr('open');
    };
    fill();
    $('lang').addEventListener('click', fill);
    const box = make('section', { id: 'puzzles-panel', className: 'panel' }, h, p, go);
    const offline = $('offline-panel');
    if (offline) offline.after(box); else lobby.prepend(box);
  }

  $('lang').addEventListener('click', () => { if (location.hash === '#puzzles') draw(); });
  window.addEventListener('hashchange', route);
  window.goitaPuzzles = { open: route };
  lobbyPanel();
  route();
})();
