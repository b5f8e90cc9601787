// Offline play and analysis. A game to the target against three computer players with no
// server: the rules and players are libgoita compiled to WebAssembly, run in worker.js, and
// the table is the client's own (app.js), drawn from state messages made here in the shape
// the server sends (docs/SERVER.md). After each round, and in the replay of a finished game,
// every move is analysed: its exact value with all hands known and what the strongest
// computer player would have played from the mover's own view (analysis.js draws it).
'use strict';

(() => {
  const client = window.goitaClient;
  const $ = (id) => document.getElementById(id);
  const TEXT = {
    ja: { offline: 'オフライン対局', offline_help: 'サーバなしで、この端末で 3 人のコンピュータと対局します。',
      play_offline: 'オフラインで打つ', opponents: '相手', offline_title: 'オフライン対局',
      next_round: '次の局へ', new_game: 'もう一局', you: 'あなた', analyse: '解析' },
    en: { offline: 'Offline game', offline_help: 'Play three computer players on this device, with no server.',
      play_offline: 'Play offline', opponents: 'Opponents', offline_title: 'Offline game',
      next_round: 'Next round', new_game: 'New game', you: 'You', analyse: 'Analyse' },
  };
  const tr = (key) => TEXT[client.lang()][key];
  // A new element with the given properties (id, className, type, textContent...).
  const make = (tag, props) => Object.assign(document.createElement(tag), props);

  // ---- the worker ----

  let worker = null, nextId = 1;
  const pending = new Map();

  // Calls an operation of worker.js; onProgress receives the analysis's progress (0-1).
  function rpc(op, args, onProgress) {
    if (!worker) {
      worker = new Worker('worker.js');
      worker.onmessage = (e) => {
        const p = pending.get(e.data.id);
        if (!p) return;
        if (e.data.progress !== undefined) { if (p.onProgress) p.onProgress(e.data.progress); return; }
        pending.delete(e.data.id);
        if (e.data.error) p.reject(new Error(e.data.error)); else p.resolve(e.data.result);
      };
      // the worker itself failed (its scripts did not load): every call waiting fails
      worker.onerror = (e) => {
        e.preventDefault();
        for (const p of pending.values()) p.reject(new Error(e.message || 'the engine did not load'));
        pending.clear();
        worker = null;
      };
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, op, args });
    });
  }

  // ---- the game ----

  const RULES = 'preset=standard';
  let game = null; // { level, seed, steps, seats, busy, dealt (the last round dealt after its end), nextTimer }

  // A random 53-bit seed as decimal text.
  function randomSeed() {
    const words = crypto.getRandomValues(new Uint32Array(2));
    return String((words[0] & 0x1fffff) * 4294967296 + words[1]);
  }

  // Pause between computer moves, so that each can be seen (localStorage goita.offline.pace, ms).
  function pace() {
    const ms = Number(localStorage.getItem('goita.offline.pace'));
    return Number.isFinite(ms) && localStorage.getItem('goita.offline.pace') !== null ? ms : 500;
  }

  // Draws the table: a state message for seat 0 as the server would send it.
  async function draw() {
    const g = await rpc('state', [0]);
    const name = localStorage.getItem('goita.name') || tr('you');
    client.receive({ type: 'state', table: 0, seat: 0, status: g.over ? 'over' : 'playing', rules: RULES,
      turn_seconds: 0, seats: game.seats(name), game: g });
    // the first table drawn: docs/BENCHMARKS.md measures the page's load time to here
    if (!performance.getEntriesByName('goita-offline-drawn').length) performance.mark('goita-offline-drawn');
    const title = $('table-title');
    if (title) title.textContent = `${tr('offline_title')} · ${client.t(g.over ? 'over' : 'playing')}`;
    return g;
  }

  // Runs the computer seats until it is the player's turn, the round ends or the game does.
  async function advance() {
    if (game.busy) return;
    game.busy = true;
    const mine = game;
    try {
      for (;;) {
        const g = await draw();
        if (mine !== game) return;
        if (g.phase === 'over') { roundOver(g); return; }
        // the player's turn: done, in the same task as the drawing, so no click comes between
        if (g.turn === 0) return;
        await new Promise((r) => setTimeout(r, pace()));
        if (mine !== game) return;
        const choice = await rpc('chooseSeat', [g.turn, game.level, String(++game.steps)]);
        await rpc('play', [choice.move]);
      }
    } finally {
      mine.busy = false;
    }
  }

  // The pause after a round before the next deal, as a server makes it (its --round-pause,
  // docs/SERVER.md); localStorage goita.offline.roundPause (ms) changes it.
  function roundPause() {
    const ms = Number(localStorage.getItem('goita.offline.roundPause'));
    return Number.isFinite(ms) && localStorage.getItem('goita.offline.roundPause') !== null ? ms : 4000;
  }

  // Deals the next round once (after the pause, or sooner by the button); the round's analysis
  // stays on screen until the next round ends.
  function dealNext(mine, round) {
    if (mine !== game || game.dealt >= round) return;
    game.dealt = round;
    clearTimeout(game.nextTimer);
    const button = $('offline-next');
    if (button) button.remove();
    rpc('next', []).then(advance);
  }

  // The round is over: its analysis, and the next round dealt after the pause (a button deals it
  // sooner), or at the game's end a button for a new game. Drawn again in the other language
  // when the language switches.
  let shownOver = null;
  async function roundOver(g, again) {
    shownOver = g;
    const mine = game;
    if (!again && !g.over) mine.nextTimer = setTimeout(() => dealNext(mine, g.round), roundPause());
    const { history } = await rpc('history', []);
    // drawn again in the other language: only while that round's panel is still up
    const up = $('offline-round');
    if (again && (!up || up.dataset.round !== String(g.round))) return;
    const box = panel();
    box.dataset.round = String(g.round);
    if (g.over || mine.dealt < g.round) {
      const button = make('button', { type: 'button', className: 'primary', id: 'offline-next',
        textContent: g.over ? tr('new_game') : tr('next_round') });
      button.addEventListener('click', () => {
        if (g.over) start(game.level);
        else dealNext(mine, g.round);
      });
      box.append(button);
    }
    // titled with its round, as it stays on screen into the next
    window.goitaAnalysis.show(box, { rules: RULES, history, players: 4, names: namesFor(game), scale: g.scale, run: rpc,
      title: client.t('round', { n: g.round }) });
  }

  // The panel under the table that holds a round's analysis.
  function panel() {
    let box = $('offline-round');
    if (box) box.remove();
    box = make('section', { id: 'offline-round', className: 'panel analysis-panel' });
    const controls = $('controls'); // under the hand, where the player looks
    if (controls) controls.after(box); else $('table').append(box);
    return box;
  }

  function namesFor() {
    const name = localStorage.getItem('goita.name') || tr('you');
    return [name, ...[1, 2, 3].map((s) => `${client.t('computer')} ${s + 1}`)];
  }

  // Starts a new game against three computer players of the level.
  async function start(level) {
    if (game) clearTimeout(game.nextTimer);
    game = { level, seed: randomSeed(), steps: 0, busy: false, dealt: 0, nextTimer: 0,
      seats: (name) => [{ name, bot: '', rating: '–', connected: true },
        ...[1, 2, 3].map((s) => ({ name: `${client.t('computer')} ${s + 1}`, bot: level, rating: '–', connected: true }))] };
    const old = $('offline-round');
    if (old) old.remove();
    client.setOffline(handle);
    document.body.classList.add('offline-play');
    client.show('table');
    try {
      await rpc('start', [RULES, game.seed]);
    } catch (e) { // no engine: web/wasm/ not built (scripts/wasm.sh) or not served
      client.showNotice(`${client.t('error')}: ${e.message}`, true);
      return;
    }
    advance();
  }

  // The page's messages while offline: moves are played, leaving ends the game.
  function handle(msg) {
    if (!game) return;
    if (msg.type === 'move' && !game.busy) rpc('play', [msg.move]).then(advance, (e) => console.error(e));
    else if (msg.type === 'rematch') start(game.level); // the game-over box's rematch: a new game
    else if (msg.type === 'leave') stop();
  }

  function stop() {
    if (game) clearTimeout(game.nextTimer);
    game = null;
    const old = $('offline-round');
    if (old) old.remove();
    client.setOffline(null);
    document.body.classList.remove('offline-play');
    if (location.hash === '#offline') history.replaceState(null, '', location.pathname);
  }

  // ---- the lobby's entry and the replay's analysis ----

  // The lobby's panel: the opponents' level and a button that opens #offline.
  function lobbyPanel() {
    const lobby = $('lobby');
    if (!lobby || $('offline-panel')) return;
    const box = make('section', { id: 'offline-panel', className: 'panel' });
    const h = make('h2'), p = make('p', { className: 'muted' }), label = make('label');
    const level = make('select', { id: 'offline-level' });
    const go = make('button', { id: 'offline-start', type: 'button', className: 'primary' });
    const fill = () => {
      h.textContent = tr('offline');
      p.textContent = tr('offline_help');
      label.firstChild.textContent = `${tr('opponents')} `;
      go.textContent = tr('play_offline');
      level.replaceChildren(...['master', 'expert', 'fast', 'sampler', 'rules', 'random'].map((lv) => new Option(client.t('level_' + lv), lv)));
    };
    label.append(document.createTextNode(''), level);
    box.append(h, p, label, ' ', go);
    fill();
    $('lang').addEventListener('click', () => { const v = level.value; fill(); level.value = v; });
    go.addEventListener('click', () => {
      localStorage.setItem('goita.offline.level', level.value);
      if (location.hash === '#offline') open(); else location.hash = '#offline';
    });
    level.value = localStorage.getItem('goita.offline.level') || 'expert';
    lobby.prepend(box);
  }

  // The replay's button: analyses the round on screen in the worker.
  function replayButton() {
    const bar = $('r-pos');
    if (!bar || $('r-analyse')) return;
    const b = make('button', { id: 'r-analyse', type: 'button' });
    const label = () => { b.textContent = tr('analyse'); };
    label();
    $('lang').addEventListener('click', label);
    b.addEventListener('click', () => {
      const r = client.replay();
      if (!r) return;
      let box = $('r-analysis');
      if (!box) {
        box = make('section', { id: 'r-analysis', className: 'panel analysis-panel' });
        $('replay').append(box);
      }
      box.replaceChildren();
      box.dataset.round = String(r.round);
      // computer players by their level in the page's language, as at the table
      const names = r.rec.players.map((p, i) => (p.engine ? `${client.t('computer')} ${i + 1} · ${client.t('level_' + p.engine)}`
        : p.name || `${client.t('seat')} ${i + 1}`));
      const scale = /scale=ones/.test(r.rec.rules) ? 'ones' : 'tens';
      window.goitaAnalysis.show(box, { rules: r.rec.rules, history: r.rec.rounds[r.round].history, players: r.players, names, scale,
        run: rpc, title: client.t('round', { n: r.round + 1 }) });
    });
    bar.parentNode.append(b);
    // another game or round on screen: the analysis shown is no longer its own
    window.addEventListener('hashchange', () => { const box = $('r-analysis'); if (box) box.remove(); });
    bar.parentNode.addEventListener('click', () => {
      const box = $('r-analysis'), r = client.replay();
      if (box && r && box.dataset.round !== String(r.round)) box.remove();
    });
  }

  function open() {
    if (game) { client.show('table'); return; }
    start(localStorage.getItem('goita.offline.level') || 'expert');
  }

  // Another language: the table again (the player's own name is a word of the page) and the
  // round's analysis.
  $('lang').addEventListener('click', () => {
    if (!game || location.hash !== '#offline') return;
    draw();
    if (shownOver && $('offline-round')) roundOver(shownOver, true);
  });

  // run: the engine's worker, which round-mistakes.js analyses online rounds with
  window.goitaOffline = { open, run: rpc };
  lobbyPanel();
  replayButton();
  if (location.hash === '#offline') open();
})();
