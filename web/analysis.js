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
    ja: { analysis: '解析', analysing: '解析中… {n}%', player: '打ち手', moves: '手数', lost: '失点', best: '最善手',
      played: '打った手', computer: 'コンピュータ ({level}) なら', margin: '次善との差 {m}', agree: '{n} 通りの配牌のうち {k} で最善', value: '値 {v}',
      none: '解析する手がありません', its_view: '打った手の見込み {v}', pass: 'なし', failed: '解析できません: {e}', exact: '全ての手を知った上での値 (得点、打ち手の側から)' },
    en: { analysis: 'Analysis', analysing: 'Analysing… {n}%', player: 'Player', moves: 'Moves', lost: 'Points lost',
      best: 'best', played: 'played', computer: 'the computer ({level}) would play', margin: 'by {m} over its next choice', agree: 'best in {k} of {n} deals',
      value: 'value {v}', none: 'No moves to analyse', its_view: 'its estimate of the move played {v}', pass: 'pass', failed: 'Cannot analyse: {e}',
      exact: 'Values with every hand known (points, for the mover\'s side)' },
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

  // The points as the rules' scale shows them (ones: a tenth).
  function points(v, scale) {
    const shown = scale === 'ones' ? v / 10 : v;
    return (shown > 0 ? '+' : '') + String(shown);
  }

  // The line of one play: who, what, its value, the best, the loss and the computer's view.
  function moveLine(m, o) {
    const li = node('li', m.loss > 0 ? 'an-move an-loss' : 'an-move');
    li.append(node('span', 'an-who', `${o.names[m.seat]}: `), node('strong', null, moveText(m.played)),
      node('span', 'an-value', ` ${tr('value', { v: points(m.value, o.scale) })}`));
    if (m.loss > 0) {
      li.append(node('span', 'an-lost', ` −${points(m.loss, o.scale).replace('+', '')}`),
        node('span', 'an-best', ` · ${tr('best', {})} ${m.best_moves.map(moveText).join(' / ')} (${points(m.best, o.scale)})`));
    }
    const c = m.computer;
    const at = (token) => c.moves.findIndex((x) => kingAs8(x) === kingAs8(token));
    const chosen = at(c.move), played = at(m.played);
    const line = node('div', 'an-computer muted', `${tr('computer', { level: client.t('level_' + LEVEL) })}: ${moveText(c.move)}`);
    if (chosen >= 0) {
      // how sure: its estimate, and how far its next choice is below it
      const others = c.values.filter((v, i) => i !== chosen);
      const margin = others.length ? c.values[chosen] - Math.max(...others) : 0;
      line.textContent += ` (${c.values[chosen].toFixed(1)}, ${tr('margin', { m: margin.toFixed(1) })}`;
      if (c.deals && c.deals[chosen]) line.textContent += `, ${tr('agree', { k: c.agree[chosen], n: c.deals[chosen] })}`;
      line.textContent += ')';
      if (played >= 0 && played !== chosen) line.textContent += ` · ${tr('its_view', { v: c.values[played].toFixed(1) })}`;
    }
    li.append(line);
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
        node('td', lost > 0 ? 'an-lost' : null, lost ? `−${points(lost, o.scale).replace('+', '')}` : '0'));
      table.append(row);
    });
    return table;
  }

  // Analyses the round o.history (under o.rules) in the worker and draws it into box, headed
  // with o.title when given.
  function show(box, o) {
    delete box.dataset.done; // set again when this analysis ends
    const title = node('h2', null, o.title ? `${tr('analysis', {})} · ${o.title}` : tr('analysis', {}));
    const status = node('p', 'muted an-status', tr('analysing', { n: 0 }));
    status.setAttribute('role', 'status');
    box.append(title, status);
    o.run('analyse', [o.rules, o.history, SPEC, o.players], (p) => { status.textContent = tr('analysing', { n: Math.round(p * 100) }); })
      .then((moves) => {
        status.textContent = tr(moves.length ? 'exact' : 'none', {});
        if (moves.length) {
          const list = node('ol', 'an-moves');
          for (const m of moves) list.append(moveLine(m, o));
          box.append(summary(moves, o), list);
        }
      }, (e) => { status.textContent = tr('failed', { e: e.message }); })
      .finally(() => { box.dataset.done = '1'; });
  }

  window.goitaAnalysis = { show };
})();
