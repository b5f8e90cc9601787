// The tutorial (#tutorial): the lessons of tutorial-lessons.js for the rule set chosen, each
// ending with an exercise played on the client's own table. The WebAssembly engine of offline
// play (worker.js) loads each position, lists the legal moves, plays every move and, for the
// computer seats, chooses them; whether an exercise is passed is read from what it answers
// (its state, or the exact solver's values of the reader's moves). Works with no server, like
// offline play. Lessons passed are kept in localStorage (goita.tutorial).
'use strict';

(() => {
  const client = window.goitaClient;
  const lessons = window.goitaLessons;
  const $ = (id) => document.getElementById(id);
  const TEXT = {
    ja: { learn: '遊び方', heading: 'ごいたの遊び方', rule_set: 'ルール', lessons: '課', lesson_n: '第{n}課', passed: '済',
      again: 'やり直す', next: '次の課へ', back: 'ロビーへ', right: '正解', wrong: '惜しい', worth: 'その手は {v} 点、いちばん良い手は {b} 点です。',
      piece: '駒', count: '枚数', value: '点', partner: '味方', opponent: '相手', you: 'あなた',
      all_done: 'すべての課を終えました。オフライン対局かオンラインの卓で打ってみましょう。', loading: '読み込み中…',
      choose: '答えを選んでください' },
    en: { learn: 'Learn', heading: 'Learn Goita', rule_set: 'Rules', lessons: 'Lessons', lesson_n: 'Lesson {n}', passed: 'passed',
      again: 'Try again', next: 'Next lesson', back: 'Lobby', right: 'Right', wrong: 'Not quite', worth: 'That move is worth {v}; the best is worth {b}.',
      piece: 'Piece', count: 'Count', value: 'Points', partner: 'Partner', opponent: 'Opponent', you: 'You',
      all_done: 'You have passed every lesson. Try a game offline or at a table online.', loading: 'Loading…',
      choose: 'Choose an answer' },
  };
  const tr = (key, args) => {
    let s = TEXT[client.lang()][key];
    for (const k in args || {}) s = s.replace('{' + k + '}', args[k]);
    return s;
  };
  const make = (tag, props, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const RULE_SETS = ['standard', 'japanese', 'french'];
  const PIECE_COUNTS = [[8, 2, 50], [7, 2, 40], [6, 2, 40], [5, 4, 30], [4, 4, 30], [3, 4, 20], [2, 4, 20], [1, 10, 10]];

  // ---- progress ----

  // { rules: the rule set chosen, passed: { rule set: [lesson ids] } }
  function progress() {
    try {
      const p = JSON.parse(localStorage.getItem('goita.tutorial') || '{}');
      return { rules: RULE_SETS.includes(p.rules) ? p.rules : 'standard', passed: p.passed || {} };
    } catch (e) { return { rules: 'standard', passed: {} }; }
  }
  function saveProgress(p) { localStorage.setItem('goita.tutorial', JSON.stringify(p)); }
  function passedHere(id) { const p = progress(); return (p.passed[p.rules] || []).includes(id); }
  function markPassed(id) {
    const p = progress();
    const list = p.passed[p.rules] || [];
    if (!list.includes(id)) list.push(id);
    p.passed[p.rules] = list;
    saveProgress(p);
  }

  // The lesson text's context: the rule set and points on its scale (docs: the French cards
  // print values divided by ten).
  function context() {
    const rs = progress().rules;
    return { rs, p: (v) => String(rs === 'french' ? v / 10 : v) };
  }
  // A lesson text in the page's language: a string or a function of the context.
  function say(text) {
    const v = text[client.lang()] !== undefined ? text[client.lang()] : text;
    return typeof v === 'function' ? v(context()) : v;
  }

  // ---- the engine ----

  let worker = null, nextId = 1;
  const pending = new Map();
  // Calls an operation of worker.js: a promise of its answer.
  function rpc(op, args) {
    if (!worker) {
      worker = new Worker('worker.js');
      worker.onmessage = (e) => {
        const p = pending.get(e.data.id);
        if (!p || e.data.progress !== undefined) return;
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
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args });
    });
  }
  const kingAs8 = (token) => token.replace(/9/g, '8');

  // ---- the page ----

  let current = 0;       // the lesson on screen
  let exercise = null;   // { lesson, rules, steps, solved, state, finished, busy, pending }
  let page = null;

  // Builds the tutorial's page (once), placed above the table its exercises are played on.
  function build() {
    if (page) return page;
    page = make('main', { id: 'tutorial', hidden: true });
    page.setAttribute('aria-labelledby', 'tut-heading');
    const head = make('div', { className: 'tut-head' });
    const h2 = make('h2', { id: 'tut-heading' });
    const label = make('label', { id: 'tut-rules-label' });
    const select = make('select', { id: 'tut-rules' });
    label.append(make('span'), ' ', select);
    const back = make('button', { type: 'button', id: 'tut-back' });
    back.addEventListener('click', () => { location.hash = ''; });
    select.addEventListener('change', () => {
      const p = progress();
      p.rules = select.value;
      saveProgress(p);
      openLesson(current);
    });
    head.append(h2, label, back);
    const nav = make('nav', { id: 'tut-nav' });
    const lesson = make('section', { id: 'tut-lesson', className: 'panel' });
    lesson.setAttribute('aria-labelledby', 'tut-title');
    page.append(head, lesson, nav); // the lesson first: the list is for jumping
    $('table').before(page);
    return page;
  }

  // The header's way in.
  function headerLink() {
    const a = make('a', { id: 'tutorial-link', href: '#tutorial' });
    $('lang').before(a);
    return a;
  }
  const link = headerLink();

  // Draws the words of the page that are not the lesson: heading, rule sets, lesson list.
  function drawFrame() {
    link.textContent = tr('learn');
    if (!page) return;
    $('tut-heading').textContent = tr('heading');
    $('tut-rules-label').firstChild.textContent = tr('rule_set');
    const select = $('tut-rules');
    select.replaceChildren(...RULE_SETS.map((rs) => new Option(client.t('preset_' + rs), rs)));
    select.value = progress().rules;
    $('tut-back').textContent = tr('back');
    const list = make('ol', { className: 'tut-list' });
    list.setAttribute('aria-label', tr('lessons'));
    lessons.forEach((l, i) => {
      const done = passedHere(l.id);
      const b = make('button', { type: 'button', className: 'tut-pick' + (done ? ' passed' : '') },
        `${i + 1}. ${say(l.title)}`);
      if (done) b.append(make('span', { className: 'tut-check', textContent: ` ✓ ${tr('passed')}` }));
      if (i === current) b.setAttribute('aria-current', 'step');
      b.addEventListener('click', () => openLesson(i));
      list.append(make('li', {}, b));
    });
    $('tut-nav').replaceChildren(list);
  }

  // The table of the pieces, their counts and values.
  function pieceTable() {
    const table = make('table', { className: 'tut-pieces' });
    const ctx = context();
    table.append(make('thead', {}, make('tr', {}, ...['piece', 'count', 'value'].map((k) => make('th', { scope: 'col', textContent: tr(k) })))));
    const body = make('tbody');
    for (const [mark, count, value] of PIECE_COUNTS) {
      const name = mark === 8 ? (client.lang() === 'en' ? 'king 王 玉' : '王 玉') : pieceName(mark);
      const cell = make('th', { scope: 'row' }, tile(mark), ' ', name);
      body.append(make('tr', {}, cell, make('td', { textContent: String(count) }), make('td', { textContent: ctx.p(value) })));
    }
    table.append(body);
    return table;
  }

  // Shows lesson i: its text, its exercise's task and the position on the table.
  function openLesson(i, keepFocus) {
    current = i;
    const l = lessons[i];
    drawFrame();
    const box = $('tut-lesson');
    const title = make('h3', { id: 'tut-title', tabIndex: -1, textContent: `${tr('lesson_n', { n: i + 1 })}: ${say(l.title)}` });
    box.replaceChildren(title, ...say(l.text).map((p) => make('p', { textContent: say(p) })));
    if (l.pieceTable) box.append(pieceTable());
    box.append(make('p', { className: 'tut-task', id: 'tut-task', textContent: say(l.task) }));
    const choices = make('div', { id: 'tut-choices', className: 'tut-choices' });
    const status = make('p', { id: 'tut-status', className: 'tut-status', role: 'status' });
    const again = make('button', { type: 'button', id: 'tut-again', textContent: tr('again') });
    again.addEventListener('click', () => openLesson(current));
    const next = make('button', { type: 'button', id: 'tut-next', className: 'primary', textContent: tr('next') });
    next.hidden = i + 1 >= lessons.length;
    next.addEventListener('click', () => openLesson(current + 1));
    box.append(choices, status, make('div', { className: 'tut-buttons' }, again, next));
    if (!keepFocus) title.focus();
    startExercise(l);
  }

  // The rule text of the rule set chosen.
  function rulesText() { return `preset=${progress().rules}`; }

  // The seats as the table draws them: the reader, and three computers named by their place.
  function seats() {
    const name = (s) => (s === 0 ? (localStorage.getItem('goita.name') || tr('you')) : `${tr(s === 2 ? 'partner' : 'opponent')} ${s + 1}`);
    return [0, 1, 2, 3].map((s) => ({ name: name(s), bot: '', rating: '–', connected: true }));
  }

  // Draws the table from the engine's state for seat 1 (g, or asked for).
  async function draw(ex, g) {
    const state = g || await rpc('state', [0]);
    if (ex !== exercise) return state;
    ex.state = state;
    client.receive({ type: 'state', table: 0, seat: 0, status: 'playing', rules: ex.rules, turn_seconds: 0, seats: seats(), game: state });
    $('table-title').textContent = `${tr('heading')} · ${say(ex.lesson.title)}`;
    return state;
  }

  // Pause between computer moves, so that each can be seen (as offline play: localStorage
  // goita.offline.pace, ms).
  function pace() {
    const ms = Number(localStorage.getItem('goita.offline.pace'));
    return localStorage.getItem('goita.offline.pace') !== null && Number.isFinite(ms) ? ms : 400;
  }

  // Loads the lesson's position into the engine and puts it on the table.
  async function startExercise(l) {
    const ex = { lesson: l, rules: rulesText(), steps: 0, solved: null, state: null, finished: false, busy: false, pending: null };
    exercise = ex;
    client.setOffline(handle);
    document.body.classList.add('tutorial-play');
    client.show('table');
    const history = typeof l.history === 'string' ? l.history : l.history[progress().rules];
    try {
      await rpc('load', [ex.rules, history]);
    } catch (e) { // no engine: web/wasm/ not built (scripts/wasm.sh) or not served
      client.showNotice(`${client.t('error')}: ${e.message}`, true);
      return;
    }
    if (ex !== exercise) return;
    if (l.goal.type === 'quiz') { quiz(ex); return; }
    await untilReader(ex);
  }

  // The quiz: the reader picks one choice; the engine's state (already reached on loading the
  // deal) says which holds. The table is drawn only after the answer, since it shows it.
  async function quiz(ex) {
    const g = await rpc('state', [0]);
    if (ex !== exercise) return;
    const box = $('tut-choices');
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', tr('choose'));
    const hand = make('div', { className: 'tut-hand' }, ...g.hand.split('').map((m) => tile(m)));
    hand.setAttribute('aria-label', client.t('your_hand'));
    hand.setAttribute('role', 'group');
    box.before(hand);
    $('table').hidden = true;
    const buttons = ex.lesson.goal.choices.map((c) => {
      const b = make('button', { type: 'button', className: 'tut-choice', textContent: say(c) });
      b.addEventListener('click', () => {
        // the choice made stays marked, and the one the engine's state bears out is shown
        buttons.forEach((other, i) => {
          other.disabled = true;
          if (ex.lesson.goal.choices[i].holds(g)) other.classList.add('tut-right');
        });
        b.classList.add('tut-chosen');
        b.setAttribute('aria-pressed', 'true');
        $('table').hidden = false;
        draw(ex);
        finish(ex, c.holds(g));
      });
      return b;
    });
    box.append(...buttons);
  }

  // Plays the computer seats (level rules, fixed seeds: the same every time) until the reader's
  // turn or the round's end, then judges the exercise. For a "best" goal the reader's position
  // is solved before it is drawn, so that no move comes before its values (solved with every
  // hand known: the lesson's own position, whose hands tutorial-lessons.js holds anyway).
  async function untilReader(ex) {
    for (;;) {
      const g = await rpc('state', [0]);
      if (ex !== exercise) return;
      if (g.turn === 0 && g.phase !== 'over' && ex.lesson.goal.type === 'best') {
        ex.solved = await rpc('solve', [ex.rules, (await rpc('history', [])).history, 0]);
        if (ex !== exercise) return;
      }
      await draw(ex, g);
      const verdict = judge(ex, g);
      if (verdict !== null) { finish(ex, verdict); return; }
      if (g.phase === 'over') { finish(ex, false); return; }
      if (g.turn === 0) return;
      await new Promise((r) => setTimeout(r, pace()));
      const choice = await rpc('chooseSeat', [g.turn, 'rules', String(++ex.steps)]);
      if (ex !== exercise) return;
      await rpc('play', [choice.move]);
    }
  }

  // The goal's verdict on the state reached: true passed, false failed, null not yet.
  function judge(ex, g) {
    const goal = ex.lesson.goal;
    const mine = g.log.filter((m) => m[0] === '1');
    if (goal.type === 'best') return g.phase === 'over' ? g.result.winner % 2 === 0 : null;
    if (goal.type === 'lead_again') {
      if (g.turn === 0 && g.phase === 'play' && mine.length > 0) return !g.attack;
      return null;
    }
    if (goal.type === 'answer' && mine.length) return Number(mine[mine.length - 1][1]) === goal.kind;
    if (goal.type === 'decide' && mine.length) return mine[mine.length - 1].endsWith(goal.want);
    return null;
  }

  // The reader's move from the table: checked against the solver's values for a "best" goal,
  // played by the engine, then the computers answer.
  // A move made while the engine is still busy with the last one (the table is drawn for the
  // reader's turn a moment before that work ends) waits for it instead of being lost.
  async function handle(msg) {
    const ex = exercise;
    if (msg.type !== 'move' || !ex || ex.finished) return;
    if (ex.busy) { ex.pending = msg; return; }
    ex.busy = true;
    try {
      if (ex.solved) {
        const s = ex.solved;
        const at = s.moves.findIndex((m) => kingAs8(m) === kingAs8(msg.move));
        const value = at >= 0 ? s.values[at][0] : null;
        ex.solved = null;
        if (value !== null && value < s.value[0]) {
          await rpc('play', [msg.move]);
          await draw(ex);
          finish(ex, false, tr('worth', { v: context().p(value), b: context().p(s.value[0]) }));
          return;
        }
      }
      await rpc('play', [msg.move]);
      await untilReader(ex);
    } catch (e) {
      client.showNotice(`${client.t('error')}: ${e.message}`);
    } finally {
      ex.busy = false;
      const next = ex.pending;
      ex.pending = null;
      if (next && ex === exercise) handle(next);
    }
  }

  // Ends an exercise: says whether it passed (and why not), keeps the lesson passed.
  function finish(ex, passed, why) {
    if (ex.finished) return;
    ex.finished = true;
    const l = ex.lesson;
    const status = $('tut-status');
    status.className = `tut-status ${passed ? 'tut-pass' : 'tut-fail'}`;
    status.textContent = `${tr(passed ? 'right' : 'wrong')}: ${say(passed ? l.done : l.miss)}${why ? ' ' + why : ''}`;
    if (passed) {
      markPassed(l.id);
      drawFrame();
      if (lessons.every((x) => passedHere(x.id))) status.textContent += ` ${tr('all_done')}`;
    }
  }

  // ---- routing ----

  function open() {
    build().hidden = false;
    $('lobby').hidden = true;
    $('replay').hidden = true;
    openLesson(current);
  }

  // Leaves the tutorial for the page the address now asks for, which the client's routing
  // (app.js, run before) has shown already.
  function close() {
    if (!page || page.hidden) return;
    page.hidden = true;
    exercise = null;
    document.body.classList.remove('tutorial-play');
    if (location.hash !== '#offline') client.setOffline(null); // offline play has taken the table over
  }

  // After the client's own routing (app.js), which knows no #tutorial.
  window.addEventListener('hashchange', () => { if (location.hash === '#tutorial') open(); else close(); });
  // Another language: the same lesson again (its exercise from the start).
  $('lang').addEventListener('click', () => {
    drawFrame();
    if (page && !page.hidden) openLesson(current, true);
  });
  drawFrame();
  if (location.hash === '#tutorial') open();
})();
