// A player's career statistics (the server's `stats` message, docs/SERVER.md "Career
// statistics"): games, rounds, points per round and points lost per move, with a chart of the
// points lost per move game by game, drawn as an inline SVG under the player's rating history.
// Points are in tens, as the server counts them whatever a table's scale.
'use strict';

Object.assign(TEXT.ja, {
  stats_title: '{name} の通算成績', my_stats: '自分の成績', stats_none: 'まだ解析された対局がありません',
  stats_summary: '対局 {games} · {rounds} 局 · 1 局あたり {ppr} 点 · 1 手あたりの失点 {lpm} ({moves} 手で)',
  stats_chart: '対局ごとの 1 手あたりの失点 (古い順、直近 {n} 対局)。太線は直近 5 対局の平均',
  stats_older: '古い', stats_newer: '新しい',
  stats_help: '失点: 全員の手駒を知った上で、最善手と比べて失った点 (選べる手が 2 つ以上あった手だけを数える)',
});
Object.assign(TEXT.en, {
  stats_title: 'Career of {name}', my_stats: 'My statistics', stats_none: 'No analysed games yet',
  stats_summary: 'Games {games} · rounds {rounds} · {ppr} points per round · {lpm} points lost per move (over {moves} moves)',
  stats_chart: 'Points lost per move, game by game (oldest first, the last {n} games); the thick line is the average of the last 5 games',
  stats_older: 'older', stats_newer: 'newer',
  stats_help: 'Points lost: against the best move with every hand known (only moves with two or more choices count)',
});

let statsShown = null; // the last stats message, kept to draw it again in another language

// A ratio to one decimal, or – without a denominator.
function ratio(a, b) {
  return b ? (a / b).toFixed(1) : '–';
}

// An SVG element with its attributes.
function svgEl(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  return node;
}

// The chart of the points lost per move of each game, oldest first, and their average over the
// last five games so far: a line that falls as the player's play gets better.
function statsChart(games) {
  const W = 320, H = 130, L = 30, R = 8, T = 8, B = 22;
  const values = games.map((g) => g.lost / g.moves);
  const average = values.map((_, i) => {
    const last = values.slice(Math.max(0, i - 4), i + 1);
    return last.reduce((a, b) => a + b, 0) / last.length;
  });
  const top = Math.max(1, Math.ceil(Math.max(...values)));
  const x = (i) => L + (values.length > 1 ? (i * (W - L - R)) / (values.length - 1) : (W - L - R) / 2);
  const y = (v) => T + (H - T - B) * (1 - v / top);
  const label = t('stats_chart', { n: values.length });
  const svg = svgEl('svg', { id: 'stats-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label });
  svg.append(svgEl('title', {}));
  svg.firstChild.textContent = label;
  for (const v of [0, top / 2, top]) {
    svg.append(svgEl('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
    const tick = svgEl('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end' });
    tick.textContent = Number.isInteger(v) ? String(v) : v.toFixed(1);
    svg.append(tick);
  }
  const path = (vs) => vs.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  svg.append(svgEl('path', { d: path(values), class: 'per-game' }), svgEl('path', { d: path(average), class: 'average' }));
  values.forEach((v, i) => svg.append(svgEl('circle', { cx: x(i), cy: y(v), r: 2.5, class: 'game' })));
  const older = svgEl('text', { x: L, y: H - 6 }), newer = svgEl('text', { x: W - R, y: H - 6, 'text-anchor': 'end' });
  older.textContent = `← ${t('stats_older')}`;
  newer.textContent = `${t('stats_newer')} →`;
  svg.append(older, newer);
  return svg;
}

// Draws a stats message (or the last one again) into the lobby's statistics box.
function renderStats(msg = statsShown) {
  if (!msg) return;
  statsShown = msg;
  const p = msg.player;
  const name = p.bot ? `${t('computer')} · ${t('level_' + p.bot)}` : botMarked(p.name, p.bot_account);
  const box = $('stats');
  box.replaceChildren(el('h3', { text: t('stats_title', { name }) }));
  if (!msg.games) {
    box.append(el('p', { class: 'muted', text: t('stats_none') }));
    return;
  }
  box.append(el('p', { id: 'stats-summary', text: t('stats_summary', { games: msg.games, rounds: msg.rounds,
    ppr: ratio(msg.points, msg.rounds), lpm: ratio(msg.lost, msg.moves), moves: msg.moves }) }));
  const charted = msg.recent.filter((g) => g.moves > 0).reverse(); // oldest first
  if (charted.length) box.append(statsChart(charted));
  box.append(el('p', { class: 'muted', text: t('stats_help') }));
}

// Asks for a player's rating history and statistics together (a name clicked, or one's own).
function showPlayer(id) {
  send({ type: 'history', player: id });
  send({ type: 'stats', player: id });
}

document.addEventListener('DOMContentLoaded', () => {
  $('my-stats').addEventListener('click', () => { if (me && me.id) showPlayer(me.id); });
});
