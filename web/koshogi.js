// Ko shogi in the browser (koshogi.html): a game against the computer or between two people at
// one screen, records and positions, and help for every piece. Every rule comes from the
// engine (libkoshogi in WebAssembly, koshogi-worker.js): the legal moves with the steps that
// choose them, their notation, the result, the help. This page only draws and asks.
'use strict';

const SIZE = 19;
const $ = (id) => document.getElementById(id);
// koshogi_wasm.h's result and reason codes: the words and the section that decides each.
const RESULTS = ['', 'black_wins', 'white_wins', 'no_contest'];
const REASONS = [null, ['no_commander', '6.1'], ['own_flame', '6.1'], ['fourth', '6.4'], ['perpetual', '6.5'], ['no_move', '6.6'],
  ['resignation', null], ['end_time', null], ['end_agreement', null]];
const SIDES = ['black', 'white'];
const side = (color) => kt(SIDES[color]);

// A worker and its pending requests: ask(op, ...args) answers a promise of the result.
function engine() {
  const worker = new Worker('koshogi-worker.js');
  const pending = new Map();
  let next = 1;
  worker.onmessage = (e) => {
    const { id, result, error } = e.data;
    const p = pending.get(id);
    pending.delete(id);
    if (error !== undefined) p.reject(new Error(error)); else p.resolve(result);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    for (const p of pending.values()) p.reject(new Error(kt('no_engine')));
    pending.clear();
  };
  return (op, ...args) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args });
  });
}

// The game's engine, and a second one for help, which answers while the first is thinking.
const game = engine();
const helper = engine();

const ui = {
  faces: new Map(), // ID -> {id, kanji, name}
  state: null,      // the engine's last state (koshogi_wasm.h)
  mode: 'black',    // black, white (the human's side against the computer) or hotseat
  thinking: false,
  sel: null,        // {from, steps: [points chosen], moves: the candidates left}
  names: ['you', 'computer'], // keys of the players' names (kt)
  cursor: 180,      // the keyboard's point on the board (10j), the board's one tab stop
};

// A point's name in the notation: file then rank, "10j".
function pointName(p) { return `${SIZE - (p % SIZE)}${String.fromCharCode(97 + Math.floor(p / SIZE))}`; }

function notice(text) {
  $('notice').textContent = text;
  $('notice').hidden = !text;
}

// Whether the human may move now: the game's current position, not over, not the computer's turn.
function humanToMove() {
  const s = ui.state;
  if (!s || ui.thinking || s.ply !== s.plies || s.result) return false;
  if (ui.mode === 'online') return onlineMayMove(s);
  return ui.mode === 'hotseat' || SIDES[s.toMove] === ui.mode;
}

// The text a piece shows: its kanji, or its ID with the setting.
function pieceLabel(id) {
  const face = ui.faces.get(id.toUpperCase());
  if (!face) return id;
  return $('latin').checked ? face.id : face.kanji;
}

// A face's name in the page's language: "CH 車 Chariot", or "車（CH）" in Japanese.
function faceName(id) {
  const face = ui.faces.get(id.toUpperCase());
  return face ? kt('face', face) : id;
}

// The result and its reason, the rule that decides it named.
function resultText(s) {
  const [reason, section] = REASONS[s.reason] || ['', null];
  return { result: kt(RESULTS[s.result]), reason: section ? kt('cited', { text: kt(reason), rule: rule(section) }) : kt(reason) };
}

// Builds the board once: a grid of 19 rows of 19 points (gridcells) with one tab stop, the
// cursor, which the arrow keys move; and the file and rank labels.
function buildBoard() {
  const board = $('board');
  for (let r = 0; r < SIZE; r++) {
    const row = document.createElement('div');
    row.className = 'row';
    row.setAttribute('role', 'row');
    for (let f = 0; f < SIZE; f++) {
      const p = r * SIZE + f;
      const cell = document.createElement('div');
      cell.className = 'pt';
      cell.dataset.p = p;
      cell.setAttribute('role', 'gridcell');
      cell.tabIndex = p === ui.cursor ? 0 : -1;
      cell.addEventListener('click', () => { moveCursor(p, false, 0); clickPoint(p); });
      row.appendChild(cell);
    }
    board.appendChild(row);
  }
  board.addEventListener('keydown', boardKey);
  drawLabels();
}

// The file and rank labels, in the order the board is seen from (flipped: from White's side).
function drawLabels() {
  const flipped = $('board').classList.contains('flipped');
  $('files').textContent = '';
  $('ranks').textContent = '';
  for (let i = 0; i < SIZE; i++) {
    $('files').appendChild(Object.assign(document.createElement('span'), { textContent: flipped ? i + 1 : SIZE - i }));
    $('ranks').appendChild(Object.assign(document.createElement('span'), { textContent: String.fromCharCode(97 + (flipped ? SIZE - 1 - i : i)) }));
  }
}

// Shows the board from White's side (turned half round, White's pieces upright) or Black's.
function setFlipped(on) {
  if ($('board').classList.contains('flipped') === on) return;
  $('board').classList.toggle('flipped', on);
  drawLabels();
}

const cellAt = (p) => $('board').querySelector(`.pt[data-p="${p}"]`);

// Puts the cursor on a point: the board's tab stop moves there, and the view pans to keep it
// and `margin` points around it in sight.
function moveCursor(p, focus, margin = 1) {
  cellAt(ui.cursor).tabIndex = -1;
  ui.cursor = p;
  const cell = cellAt(p);
  cell.tabIndex = 0;
  if (focus) cell.focus({ preventScroll: true });
  panTo(cell, margin);
  $('cursor-at').textContent = pointName(p);
}

// Pans the board's view (not the page) by as little as shows the cell and `margin` cells
// around it; with `others`, the box around all of them when it fits, else the first centred.
function panTo(cell, margin, others = []) {
  const view = $('board-view');
  const v = view.getBoundingClientRect(), c = cell.getBoundingClientRect();
  const m = c.width * margin;
  const box = { left: c.left - m, right: c.right + m, top: c.top - m, bottom: c.bottom + m };
  for (const o of others) {
    const r = o.getBoundingClientRect();
    Object.assign(box, { left: Math.min(box.left, r.left), right: Math.max(box.right, r.right), top: Math.min(box.top, r.top), bottom: Math.max(box.bottom, r.bottom) });
  }
  // the view's own edges, less the file and rank labels that stay on top of it
  const edge = { left: v.left, right: v.right - $('ranks').offsetWidth, top: v.top + $('files').offsetHeight, bottom: v.bottom };
  const pan = (lo, hi, from, to, centre) => (hi - lo > to - from ? centre - (from + to) / 2 : lo < from ? lo - from : hi > to ? hi - to : 0);
  view.scrollLeft += pan(box.left, box.right, edge.left, edge.right, (c.left + c.right) / 2);
  view.scrollTop += pan(box.top, box.bottom, edge.top, edge.bottom, (c.top + c.bottom) / 2);
}

// The board's keys: arrows (and Home, End, Page Up, Page Down) move the cursor; Enter or Space
// chooses its point as a click would; Escape drops the move being chosen.
function boardKey(e) {
  const row = Math.floor(ui.cursor / SIZE), file = ui.cursor % SIZE;
  const d = $('board').classList.contains('flipped') ? -1 : 1; // the arrows go the way the board is seen
  const to = {
    ArrowUp: [row - d, file], ArrowDown: [row + d, file], ArrowLeft: [row, file - d], ArrowRight: [row, file + d],
    Home: [row, d > 0 ? 0 : SIZE - 1], End: [row, d > 0 ? SIZE - 1 : 0], PageUp: [d > 0 ? 0 : SIZE - 1, file],
    PageDown: [d > 0 ? SIZE - 1 : 0, file],
  }[e.key];
  if (to) {
    e.preventDefault();
    const [r, f] = to;
    if (r >= 0 && r < SIZE && f >= 0 && f < SIZE) moveCursor(r * SIZE + f, true);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    clickPoint(ui.cursor);
  } else if (e.key === 'Escape' && ui.sel) {
    ui.sel = null;
    draw();
  }
}

// The steps of the moves still chosen among: those that come next, and whether some move ends here.
function nextSteps() {
  const sel = ui.sel;
  const next = new Map(); // point -> kind
  let complete = false;
  for (const m of sel.moves) {
    if (m.steps.length === sel.steps.length) complete = true;
    else if (!next.has(m.steps[sel.steps.length][0])) next.set(m.steps[sel.steps.length][0], m.steps[sel.steps.length][1]);
  }
  return { next, complete };
}

// Draws the board of the state shown, the selection and the last move.
function drawBoard() {
  const s = ui.state;
  const cells = $('board').querySelectorAll('.pt');
  const last = s.last;
  const steps = ui.sel ? nextSteps().next : new Map();
  for (let p = 0; p < cells.length; p++) {
    const cell = cells[p];
    const id = s.board[p];
    cell.textContent = '';
    cell.className = 'pt';
    if (id) {
      const span = document.createElement('span');
      const label = pieceLabel(id);
      span.className = `pc ${id === id.toLowerCase() ? 'white' : 'black'}${id.startsWith('+') ? ' promoted' : ''}${[...label].length > 2 ? ' long three' : [...label].length > 1 ? ' long' : ''}`;
      span.textContent = label;
      cell.appendChild(span);
      cell.title = kt('point_piece', { point: pointName(p), side: side(id === id.toLowerCase() ? 1 : 0), piece: faceName(id) });
    } else {
      cell.title = pointName(p);
    }
    cell.setAttribute('aria-label', cell.title);
    if (last && (p === last.from || p === last.to)) cell.classList.add('last');
    if (last && (last.caps.includes(p) || last.shots.includes(p))) cell.classList.add('last-hit');
    cell.setAttribute('aria-selected', String(!!ui.sel && p === ui.sel.from));
    if (ui.sel && p === ui.sel.from) cell.classList.add('selected');
    if (ui.sel && ui.sel.steps.includes(p)) cell.classList.add('chosen');
    if (steps.has(p)) cell.classList.add({ x: 'to-capture', m: 'to-move', '*': 'to-shoot' }[steps.get(p)]);
  }
}

// The move list, each move a button that shows the position after it.
function drawMoves() {
  const s = ui.state;
  const list = $('moves');
  list.textContent = '';
  s.moves.forEach((text, i) => {
    const side = (s.firstToMove + i) % 2;
    const number = s.firstNumber + Math.floor((s.firstToMove + i) / 2);
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = side === 0 || i === 0 ? `${number}${side ? '…' : '.'} ${text}` : text;
    if (i + 1 === s.ply) b.classList.add('current');
    b.addEventListener('click', () => view(i + 1));
    li.appendChild(b);
    list.appendChild(li);
  });
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
  $('result').textContent = s.result ? kt('over', resultText(s)) : '';
}

// The line above the board: whose move, what is being chosen, or the result.
function drawStatus() {
  const s = ui.state;
  let text;
  if (s.ply !== s.plies) text = kt('replay', { ply: s.ply, plies: s.plies });
  else if (onlineStatus()) text = onlineStatus();
  else if (s.result) text = kt('over', resultText(s));
  else if (ui.thinking) text = kt('thinking', { side: side(s.toMove) });
  else text = kt('to_move', { side: side(s.toMove), number: s.number, ply: s.plies + 1 }) + (humanToMove() ? kt('hint') : '');
  $('status').textContent = text;
  $('replay').hidden = s.plies === 0;
  $('replay-at').textContent = `${s.ply} / ${s.plies}`;
  $('play-on').hidden = s.ply === s.plies;
  $('resign').disabled = !!s.result || s.ply !== s.plies || ui.thinking || (online() && !onlineMayResign());
  if (document.activeElement !== $('position')) $('position').value = s.position;
}

function draw() {
  setFlipped(online() && ks.table.you === 'white');
  drawBoard();
  drawMoves();
  drawStatus();
  drawChoice();
  drawOnline();
}

// The bar under the board while a move is chosen: the steps so far and what may end it.
function drawChoice() {
  const sel = ui.sel;
  $('choice').hidden = !sel;
  if (!sel) return;
  const { complete, next } = nextSteps();
  const promotes = complete && new Set(sel.moves.filter((m) => m.steps.length === sel.steps.length).map((m) => m.promote)).size === 2;
  const from = ui.state.board[sel.from].toUpperCase();
  const face = ui.faces.get(from);
  let text = kt('choice', { piece: ksLang === 'ja' && face ? face.kanji : from, from: pointName(sel.from) }) +
    sel.steps.map((p) => ' → ' + pointName(p)).join('');
  if (promotes) text += kt('ask_promote');
  else if (next.size) text += kt(complete ? 'go_on' : 'next_point');
  $('choice-text').textContent = text;
  $('finish').hidden = !complete || promotes || next.size === 0;
  $('promote').hidden = $('no-promote').hidden = !promotes;
}

// Chooses a point while a move is chosen, or a piece to move.
function clickPoint(p) {
  const s = ui.state;
  if (s.board[p]) showHelp(s.board[p].toUpperCase(), s.board[p] === s.board[p].toLowerCase() ? 1 : 0);
  if (!humanToMove()) return;
  if (ui.sel) {
    const { next } = nextSteps();
    if (next.has(p)) {
      ui.sel.steps.push(p);
      ui.sel.moves = ui.sel.moves.filter((m) => m.steps.length >= ui.sel.steps.length && m.steps[ui.sel.steps.length - 1][0] === p);
      const { complete, next: after } = nextSteps();
      if (complete && after.size === 0) return finish();
      draw();
      return showChoices(p);
    }
  }
  const moves = s.legal.filter((m) => m.from === p);
  ui.sel = moves.length && (!ui.sel || ui.sel.from !== p) ? { from: p, steps: [], moves } : null;
  draw();
  if (ui.sel) showChoices(p);
}

// On a panned board, brings the point just chosen into sight with every next step from it
// when they all fit, else centres it.
function showChoices(p) {
  panTo(cellAt(p), 0, [...nextSteps().next.keys()].map(cellAt));
}

// Ends the move with the steps chosen: played at once, or after asking about promotion.
function finish(promote) {
  const sel = ui.sel;
  let done = sel.moves.filter((m) => m.steps.length === sel.steps.length);
  if (promote !== undefined) done = done.filter((m) => m.promote === promote);
  if (new Set(done.map((m) => m.promote)).size === 2) {
    sel.moves = done;
    return draw();
  }
  ui.sel = null;
  play(done[0].text);
}

// Plays a move, then lets the computer answer when it is its turn.
async function play(text) {
  if (online()) return onlineMove(text);
  try {
    ui.state = await game('play', text);
  } catch (e) {
    notice(e.message);
  }
  draw();
  computerTurn();
}

// Asks the engine for the computer's move when the computer is to move.
async function computerTurn() {
  const s = ui.state;
  if (ui.mode === 'hotseat' || ui.mode === 'online' || s.result || s.ply !== s.plies || SIDES[s.toMove] === ui.mode) return;
  ui.thinking = true;
  draw();
  try {
    ui.state = await game('think', Number($('think').value));
  } catch (e) {
    notice(e.message);
  }
  ui.thinking = false;
  draw();
}

// Shows the position after `ply` moves of the game (a replay), or the game's current one.
async function view(ply) {
  if (ui.thinking) return;
  ui.sel = null;
  ui.state = await game('state', ply);
  draw();
}

// Starts a game from a position's text ("" for the start) in the mode chosen.
async function newGame(position) {
  if (ui.thinking) return notice(kt('wait'));
  ui.mode = $('mode').value;
  ui.names = ui.mode === 'hotseat' ? ['black', 'white'] : ui.mode === 'black' ? ['you', 'computer'] : ['computer', 'you'];
  ui.sel = null;
  try {
    ui.state = await game('start', position);
    notice('');
  } catch (e) {
    return notice(kt('position_unread', { why: e.message }));
  }
  draw();
  computerTurn();
}

// Offers the game's record as a text file (docs/KOSHOGI.md, "Records").
async function download() {
  const { record } = await game('record', kt(ui.names[0]), kt(ui.names[1]));
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([record], { type: 'text/plain' }));
  a.download = 'koshogi-game.txt';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Reads a record from a file and shows its start, for stepping through it.
async function loadRecord(file) {
  if (ui.thinking) return notice(kt('wait'));
  try {
    const loaded = await game('load', await file.text());
    ui.names = [loaded.black || 'black', loaded.white || 'white'];
    ui.mode = 'hotseat';
    $('mode').value = 'hotseat';
    notice('');
    await view(0);
  } catch (e) {
    notice(kt('record_unread', { why: e.message }));
  }
}

// Draws the help of a face: the piece alone on 10j of an empty board with where it goes, and
// what the engine says of it.
async function showHelp(id, color) {
  $('help-piece').value = id;
  $('help-white').checked = color === 1;
  let h;
  try {
    h = await helper('help', id, color);
  } catch (e) {
    $('help-body').textContent = e.message;
    return;
  }
  const body = $('help-body');
  body.textContent = '';
  const add = (tag, text, cls) => body.appendChild(Object.assign(document.createElement(tag), { textContent: text, className: cls || '' }));
  add('h3', kt('help_title', h));
  const entry = ksLang === 'ja' ? h.entryJa : h.entry;
  // the Betza line is notation (translate="no"), its few words put in the page's language
  const ruleLine = add('p', kt('help_rule', { rule: rule(h.section), entry }));
  ruleLine.append(Object.assign(document.createElement('code'), { textContent: betzaText(h.betza), translate: false }), ksLang === 'ja' ? '。' : '.');
  const mini = document.createElement('div');
  mini.className = 'mini';
  const reach = new Map(h.reach);
  for (let p = 0; p < SIZE * SIZE; p++) {
    const c = document.createElement('span');
    if (p === h.at) {
      c.textContent = pieceLabel(color ? h.id.toLowerCase() : h.id);
      c.className = `at ${color ? 'white' : 'black'}`;
    } else if (reach.has(p)) {
      c.className = reach.get(p) & 4 ? 'reach promotes' : 'reach';
    }
    mini.appendChild(c);
  }
  body.appendChild(mini);
  const pass = reach.has(h.at) && (reach.get(h.at) & 2) ? kt('may_pass', { rule: rule('4.5') }) : '';
  add('p', kt('reach', { n: h.reach.length, pass }), 'muted');
  add('p', h.promotes ? kt('promotes', { face: faceName(h.promotes), rule: rule('5.1–5.3') }) : kt('no_promotion', { rule: rule('5.1') }));
  if (h.movesAs !== h.id) add('p', kt('moves_as', { face: faceName(h.movesAs), rule: rule('D37') }));
  if (h.reverts) add('p', kt('reverts', { face: faceName(h.reverts), rule: rule('5.5') }));
  if (h.shots) add('p', kt('shots', { shots: h.shots, range: h.shotRange, unit: h.shotRange === 1 ? 'point' : 'points' }));
  const ul = document.createElement('ul');
  // the engine gives each line in both languages (include/koshogi/koshogi.h, ks_power_describe, ks_face_notes)
  for (const line of h.powers)
    ul.appendChild(Object.assign(document.createElement('li'), { textContent: kt('cited', { text: ksLang === 'ja' ? line.ja : line.text, rule: rule(line.section) }) }));
  body.appendChild(ul);
}

// The list of pieces for the help, in the page's language.
function fillHelpPieces() {
  const select = $('help-piece');
  const chosen = select.value;
  select.textContent = '';
  for (const face of ui.faces.values()) select.appendChild(Object.assign(document.createElement('option'), { value: face.id, textContent: kt('face', face) }));
  if (chosen) select.value = chosen;
}

// Writes the page again in the language chosen.
function changeLanguage(next) {
  setLang(next);
  translateStatic();
  fillHelpPieces();
  if (ui.state) draw();
  drawTables();
  drawLeaders();
  showHelp($('help-piece').value || 'G', $('help-white').checked ? 1 : 0);
}

// Shows the board with larger points, to be panned (by swiping or with the cursor), or whole.
function setZoom(on) {
  $('zoom').setAttribute('aria-pressed', String(on));
  document.body.classList.toggle('zoomed', on);
  moveCursor(ui.cursor, false, SIZE); // centred
}

// Wires the controls and starts a game against the computer.
async function init() {
  $('lang').value = ksLang;
  translateStatic();
  buildBoard();
  // a phone shows the pieces large enough to read, a part of the board at a time
  setZoom(window.matchMedia('(max-width: 700px)').matches);
  $('zoom').addEventListener('click', () => setZoom($('zoom').getAttribute('aria-pressed') !== 'true'));
  $('lang').addEventListener('change', () => changeLanguage($('lang').value));
  $('new-form').addEventListener('submit', (e) => { e.preventDefault(); newGame(''); });
  $('set-position').addEventListener('click', () => newGame($('position').value.trim()));
  $('latin').addEventListener('change', () => { draw(); showHelp($('help-piece').value, $('help-white').checked ? 1 : 0); });
  $('finish').addEventListener('click', () => finish());
  $('promote').addEventListener('click', () => finish(1));
  $('no-promote').addEventListener('click', () => finish(0));
  $('cancel').addEventListener('click', () => { ui.sel = null; draw(); });
  $('resign').addEventListener('click', async () => {
    ui.sel = null;
    if (online()) return ksSend({ type: 'ks_resign', table: ks.table.table });
    ui.state = await game('resign');
    draw();
  });
  $('download').addEventListener('click', download);
  $('load').addEventListener('change', (e) => { if (e.target.files[0]) loadRecord(e.target.files[0]); e.target.value = ''; });
  $('first').addEventListener('click', () => view(0));
  $('prev').addEventListener('click', () => view(Math.max(0, ui.state.ply - 1)));
  $('next').addEventListener('click', () => view(Math.min(ui.state.plies, ui.state.ply + 1)));
  $('last').addEventListener('click', () => view(ui.state.plies));
  $('play-on').addEventListener('click', async () => { ui.sel = null; ui.state = await game('truncate', ui.state.ply); draw(); computerTurn(); });
  $('help-piece').addEventListener('change', () => showHelp($('help-piece').value, $('help-white').checked ? 1 : 0));
  $('help-white').addEventListener('change', () => showHelp($('help-piece').value, $('help-white').checked ? 1 : 0));
  try {
    for (const face of await helper('faces')) ui.faces.set(face.id, face);
    fillHelpPieces();
    await newGame('');
    onlineInit();
    await showHelp('G', 0);
  } catch (e) {
    $('status').textContent = '';
    notice(e.message);
  }
}

init();
