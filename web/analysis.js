// The analysis of a round, drawn into a panel: for every play, the exact value of the move
// played and of the best move with all hands known (the solver, docs/SOLVER.md), the points the
// move lost, and what the strongest computer player would have chosen from the mover's own
// view with its estimate and its margin over its next choice; then each player's total loss.
// The work runs in worker.js (offline.js passes its caller as run).
'use strict';

(() => {
  const client = window.goitaClient;
  // the budgeted level (docs/PLAYERS.md), which also says in how many deals each move was best
  const LEVEL = 'master', SPEC = 'master:ms=30';
  const TEXT = {
    ja: { analysis: '解析', analysing: '解析中… {n}%', player: '打ち手', moves: '手数', lost: '失点', pass: 'なし',
      played: '{move}: {v} 点', instead: '{moves} なら {gain} 点', computer: 'コンピュータ ({level}) なら {move}',
      estimate: '見込み {v} 点', margin: '次善より {m} 点上', agree: '{n} 通りの配牌のうち {k} で最善',
      its_view: '打った手の見込み {v} 点', mistake: '{move} で {lost} 点失った ({best} が最善)', none: '解析する手がありません', failed: '解析できません: {e}',
      exact: '点は全員の手駒を知った上での値 (打ち手の側から見た、この局の得点)' },
    en: { analysis: 'Analysis', analysing: 'Analysing… {n}%', player: 'Player', moves: 'Moves', lost: 'Points lost', pass: 'pass',
      played: '{move}: {v} points', instead: 'if {moves} had been played: {gain}', computer: 'the computer ({level}) would play {move}',
      estimate: 'estimated {v} points', margin: '{m} more than its next choice', agree: 'best in {k} of {n} deals',
      its_view: 'its estimate of the move played: {v} points', mistake: '{move} lost {lost} points ({best} was best)', none: 'No moves to analyse', failed: 'Cannot analyse: {e}',
      exact: 'Points are the round\'s score for the mover\'s side, with every hand known' },
  };
  const tr = (key, args) => TEXT[client.lang()][key].replace(/\{(\w+)\}/g, (_, k) => args[k]);

  function node(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  // A move token with the king 玉 (9) written as 王 (8), as move lists give kings.
  function kingAs8(token) { return token.replace(/9/g, '8'); }

  // A move token ("213", "2p") as kanji: block → attack, or pass.
  function moveText(token) {
    if (token[1] === 'p') return tr('pass', {});
    return `${client.KANJI[token[1]]}→${client.KANJI[token[2]]}`;
  }

  // The points as the rules' scale shows them (ones: a tenth), signed.
  function points(v, scale) {
    const shown = scale === 'ones' ? v / 10 : v;
    return (shown > 0 ? '+' : shown < 0 ? '−' : '') + String(Math.abs(shown));
  }
  // An estimate (an average over deals) on the rules' scale, signed, to one decimal.
  function estimate(v, scale) {
    const shown = Math.round((scale === 'ones' ? v / 10 : v) * 10) / 10;
    return (shown > 0 ? '+' : shown < 0 ? '−' : '') + Math.abs(shown).toFixed(1);
  }

  // What the computer saw, in words: its pick, its estimate, how far ahead of its next choice
  // and in how many deals it was best. A budgeted search drops moves that fall behind, so only
  // moves valued over as many deals as the pick are compared with it (a move dropped early can
  // average above the pick over its few deals): its margin is over those, never negative, and
  // the estimate of the move played is shown only when it is one of them.
  function computerLine(c, played, o) {
    const line = node('div', 'an-computer muted', tr('computer', { level: client.t('level_' + LEVEL), move: moveText(c.move) }));
    const at = (token) => c.moves.findIndex((x) => kingAs8(x) === kingAs8(token));
    const chosen = at(c.move), mine = at(played);
    if (chosen < 0 || !c.values || c.values.length !== c.moves.length) return line;
    const deals = (i) => (c.deals && c.deals.length ? c.deals[i] : 0);
    const comparable = (i) => deals(i) === deals(chosen);
    const parts = [tr('estimate', { v: estimate(c.values[chosen], o.scale) })];
    const rivals = c.values.filter((v, i) => i !== chosen && comparable(i));
    const margin = rivals.length ? c.values[chosen] - Math.max(...rivals) : -1;
    if (margin >= 0) parts.push(tr('margin', { m: estimate(margin, o.scale).replace('+', '') }));
    if (deals(chosen)) parts.push(tr('agree', { k: c.agree[chosen], n: deals(chosen) }));
    line.textContent += ` (${parts.join(', ')})`;
    if (mine >= 0 && mine !== chosen && comparable(mine) && c.values[mine] <= c.values[chosen]) {
      line.textContent += ` · ${tr('its_view', { v: estimate(c.values[mine], o.scale) })}`;
    }
    return line;
  }

  // The line of one play: who, what it was worth, what the best would have been worth more,
  // and the computer's view.
  function moveLine(m, o) {
    const li = node('li', m.loss > 0 ? 'an-move an-loss' : 'an-move');
    li.append(node('span', 'an-who', `${o.names[m.seat]}: `),
      node('span', 'an-value', tr('played', { move: moveText(m.played), v: points(m.value, o.scale) })));
    if (m.loss > 0) {
      li.append(' · ', node('span', 'an-best', tr('instead', { moves: m.best_moves.map(moveText).join(' / '), gain: points(m.loss, o.scale) })));
    }
    li.append(computerLine(m.computer, m.played, o));
    return li;
  }

  // Each player's moves and total points lost.
  function summary(moves, o) {
    const table = node('table', 'an-summary');
    const head = node('tr');
    for (const h of ['player', 'moves', 'lost']) head.append(node('th', null, tr(h, {})));
    table.append(head);
    o.names.forEach((name, seat) => {
      const mine = moves.filter((m) => m.seat === seat);
      const lost = mine.reduce((sum, m) => sum + m.loss, 0);
      const row = node('tr');
      row.append(node('td', null, name), node('td', null, String(mine.length)),
        node('td', lost > 0 ? 'an-lost' : null, lost ? points(-lost, o.scale) : '0'));
      table.append(row);
    });
    return table;
  }

  // Analyses the round o.history (under o.rules) in the worker: a promise of its moves.
  function analyse(o, onProgress) {
    return o.run('analyse', [o.rules, o.history, SPEC, o.players], onProgress);
  }

  // Each seat's biggest mistake in an analysed round: the move that lost most points, or null
  // for a seat that lost none.
  function mistakes(moves, players) {
    const worst = new Array(players).fill(null);
    for (const m of moves) if (m.loss > 0 && (!worst[m.seat] || m.loss > worst[m.seat].loss)) worst[m.seat] = m;
    return worst;
  }

  // A biggest mistake in one line: the move, the points it lost and the best moves instead (the
  // first three: early in a round many moves can be equally best).
  function mistakeText(m, o) {
    const best = m.best_moves.slice(0, 3).map(moveText).join(' / ') + (m.best_moves.length > 3 ? ' …' : '');
    return tr('mistake', { move: moveText(m.played), lost: points(m.loss, o.scale).replace('+', ''), best });
  }

  // Draws the round's analysis into box, headed with o.title when given: o.moves when already
  // analysed, else analysed now in the worker.
  function show(box, o) {
    delete box.dataset.done; // set again when this analysis ends
    const title = node('h2', null, o.title ? `${tr('analysis', {})} · ${o.title}` : tr('analysis', {}));
    const status = node('p', 'muted an-status', tr('analysing', { n: 0 }));
    status.setAttribute('role', 'status');
    box.append(title, status);
    const work = o.moves ? Promise.resolve(o.moves) : analyse(o, (p) => { status.textContent = tr('analysing', { n: Math.round(p * 100) }); });
    work.then((moves) => {
      status.textContent = tr(moves.length ? 'exact' : 'none', {});
      if (moves.length) {
        const list = node('ol', 'an-moves');
        for (const m of moves) list.append(moveLine(m, o));
        box.append(summary(moves, o), list);
      }
    }, (e) => { status.textContent = tr('failed', { e: e.message }); })
      .finally(() => { box.dataset.done = '1'; });
  }

  window.goitaAnalysis = { show, analyse, mistakes, mistakeText };
})();
