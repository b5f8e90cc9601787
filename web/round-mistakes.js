// After a round online: each player's biggest mistake in points lost, in the round's result
// (results.js), and the round's whole analysis a click away. Analysed in the browser by the
// WebAssembly engine offline play uses (offline.js, analysis.js), from the finished round in
// full: the `previous_round` a spectator of the table is sent (docs/SERVER.md). A seated player
// is never sent it on its seat's connection, so the page asks for it as any spectator may, on a
// second short connection that watches the table (joins it by its invite when private), and
// closes it once it has the round.
'use strict';

(() => {
  const rounds = new Map(); // "table:round" -> { status: 'waiting' | 'done' | 'failed', moves, o }

  // The play tokens of a round's moves ("2x3" from a seat's view matches "213"), to know the
  // round a previous_round is.
  function samePlays(seen, full) {
    const plays = (moves) => moves.filter((m) => m.length === 3);
    const a = plays(seen), b = plays(full);
    return a.length === b.length && a.every((m, i) => [...m].every((c, j) => c === 'x' || c === b[i][j]));
  }

  // The finished round in full, from a spectator's view of the table on a connection of its
  // own: a promise of its history string, checked to be the round whose moves the seat saw.
  function fetchRound(v, players, log) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/', 'goita');
      const done = (f, x) => { clearTimeout(timer); ws.close(); f(x); };
      const timer = setTimeout(() => done(reject, new Error('no answer')), 15000);
      ws.onopen = () => {
        const token = localStorage.getItem('goita.player');
        ws.send(JSON.stringify(token ? { type: 'hello', player_token: token } : { type: 'hello' }));
        ws.send(JSON.stringify(v.invite ? { type: 'join', invite: v.invite } : { type: 'watch', table: v.table }));
      };
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === 'error' && /^(watch|join)$/.test(msg.request)) done(reject, new Error(msg.error));
        if (msg.type !== 'state' || msg.table !== v.table || !msg.previous_round) return;
        const full = msg.previous_round.split(',').slice(players + 1);
        done(samePlays(log, full) ? resolve : reject, samePlays(log, full) ? msg.previous_round : new Error('the round has moved on'));
      };
      ws.onerror = () => done(reject, new Error('no connection'));
    });
  }

  // Starts the analysis of the round the summary s is of, from the table's state v at its end.
  function analyse(s, v) {
    const entry = { status: 'waiting', moves: null, o: null };
    const history = v.seat < 0 && v.previous_round ? Promise.resolve(v.previous_round) : fetchRound(v, s.players, v.game.log);
    entry.o = { rules: v.rules, players: s.players, names: [], scale: s.scale, run: window.goitaOffline.run };
    history.then((h) => window.goitaAnalysis.analyse({ ...entry.o, history: h }))
      .then((moves) => { entry.status = 'done'; entry.moves = moves; },
        (e) => { entry.status = 'failed'; entry.error = e.message; })
      .finally(() => { if (shownResult && `${shownResult.table}:${shownResult.round}` === entry.key) renderRoundResult(); });
    return entry;
  }

  // The biggest mistakes of the round summarised in s, drawn into the round's result box.
  function attach(box, s) {
    // a server's table only: offline play and the tutorial draw table 0, and analyse for themselves
    if (!s.table || !window.goitaOffline || !window.goitaAnalysis) return;
    const key = `${s.table}:${s.round}`;
    let entry = rounds.get(key);
    if (!entry) {
      // the table's state of that round's end: only while it is still the one on screen
      if (!view || view.table !== s.table || !view.game || view.game.round !== s.round || view.game.phase !== 'over') return;
      entry = analyse(s, view);
      entry.key = key;
      rounds.set(key, entry);
    }
    // the names in the page's language, which may have changed since
    entry.o.names = s.seats.map((seat, i) => (seat ? displayName(seat, i) : t('seat_n', { n: i + 1 })));
    entry.o.title = t('round', { n: s.round });
    const part = el('div', { id: 'round-mistakes', 'aria-live': 'polite' }, el('h3', { text: t('mistakes') }));
    if (entry.status === 'waiting') part.append(el('p', { class: 'muted', text: t('mistakes_wait') }));
    if (entry.status === 'failed') part.append(el('p', { class: 'muted', text: `${t('error')}: ${entry.error}` }));
    if (entry.status === 'done') {
      const list = el('ul', { class: 'mistakes' });
      window.goitaAnalysis.mistakes(entry.moves, s.players).forEach((m, seat) => {
        list.append(el('li', {}, el('strong', { text: `${entry.o.names[seat]}: ` }),
          m ? window.goitaAnalysis.mistakeText(m, entry.o) : t('no_mistakes')));
      });
      // one panel per round, kept across the redraws of every new state, open or not
      if (!entry.panel) entry.panel = el('section', { id: 'round-analysis', class: 'analysis-panel', tabindex: '0', 'aria-label': t('show_analysis'), hidden: '' });
      const panel = entry.panel;
      if (panel.dataset.lang !== lang) { // drawn again in the page's language
        panel.replaceChildren();
        if (!panel.hidden) window.goitaAnalysis.show(panel, { ...entry.o, moves: entry.moves });
      }
      panel.dataset.lang = lang;
      const label = () => t(panel.hidden ? 'show_analysis' : 'hide_analysis');
      const toggle = el('button', { id: 'show-analysis', type: 'button', 'aria-expanded': String(!panel.hidden), text: label(),
        on: { click: () => {
          panel.hidden = !panel.hidden;
          toggle.setAttribute('aria-expanded', String(!panel.hidden));
          toggle.textContent = label();
          if (!panel.hidden && !panel.children.length) window.goitaAnalysis.show(panel, { ...entry.o, moves: entry.moves });
        } } });
      part.append(list, toggle, panel);
    }
    const close = box.querySelector('#round-result-close');
    box.insertBefore(part, close);
  }

  window.goitaRoundMistakes = { attach };
})();
