#!/usr/bin/env node
// SimpleAI of goita-ai-sample 0.1.1 (heuristics early, goita-core's solver averaged over 20
// samples late in the round) behind the goita line protocol (docs/PROTOCOL.md), so that
// `goita match` can play it:
//
//   goita match rules "engine:node tools/goita-ai-sample/adapter.js"
//
// The adapter is told only the seat's view (a history string with x for hidden pieces). To
// hand SimpleAI the ThinkingInfo it expects, it deals the hidden pieces at random in a way
// goita-core accepts, builds goita-core's board and asks that board for the seat's
// ThinkingInfo, which hides them again. SimpleAI plays the 4-player game; goita-core's rule
// readings (docs/RECORDS.md 4) are those of king_face_down=allowed, so under the default rules the
// adapter skips a king placed face-down unless the hand is two kings, and under the other
// king_attack options it skips king attacks those options forbid.
'use strict';

const readline = require('readline');
const goita = require('goita-core');
const Random = require('random-js');
const { SimpleAI } = require('goita-ai-sample');

const PROTOCOL_VERSION = 1;
const FILL_TRIES = 2000;

// mulberry32: the adapter's own random choices, seeded by "go seed S".
function seeded(seed) {
  let state = seed >>> 0;
  return function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const SET = { 1: 10, 2: 4, 3: 4, 4: 4, 5: 4, 6: 2, 7: 2, 8: 1, 9: 1 };

function readRules(text) {
  const rules = { players: 4, kingFaceDown: 'forbidden', kingAttack: 'any_of_abc' };
  for (const item of text.split(',')) {
    const [name, value] = item.split('=').map((s) => (s || '').trim());
    if (name === 'players') rules.players = Number(value);
    if (name === 'king_face_down') rules.kingFaceDown = value;
    if (name === 'king_attack') rules.kingAttack = value;
  }
  return rules;
}

// Splits a history string: 4 hands, the dealer (with 5-pawn decisions "s1+3r"), the moves.
function readHistory(text) {
  const tokens = text.trim().split(',');
  if (tokens.length < 5) throw new Error('a history string has 4 hands and a dealer');
  const hands = tokens.slice(0, 4);
  const dealerToken = tokens[4];
  const m = /^s([1-4])((?:\+[1-4][rg])*)$/.exec(dealerToken);
  if (!m) throw new Error(`"${dealerToken}" is not a dealer token`);
  const decisions = (m[2].match(/[1-4][rg]/g) || []).map((d) => ({ seat: Number(d[0]) - 1, redeal: d[1] === 'r' }));
  return { hands, dealer: Number(m[1]) - 1, decisions, moves: tokens.slice(5) };
}

const count = (text, digit) => text.split('').filter((c) => c === digit).length;

// The seat whose 5-pawn decision is pending, or -1.
function pendingDecider(h) {
  if (h.moves.length > 0) return -1;
  const goshi = [0, 1, 2, 3].filter((s) => count(h.hands[s], '1') >= 5);
  if (goshi.length === 0) return -1;
  const decided = new Set(h.decisions.map((d) => d.seat));
  for (let i = 0; i < 4; i++) {
    const s = (h.dealer + i) % 4;
    if (goshi.includes((s + 2) % 4) && !decided.has(s)) return s;
  }
  return -1;
}

// One random full history consistent with the hidden one that goita-core's board accepts.
function fill(h, random) {
  const hidden = [0, 1, 2, 3].map((s) => count(h.hands[s], 'x'));
  const pool = [];
  const left = Object.assign({}, SET);
  for (const hand of h.hands) for (const c of hand) if (c !== 'x') left[c]--;
  for (const d of Object.keys(left)) for (let i = 0; i < left[d]; i++) pool.push(d);
  for (let tries = 0; tries < FILL_TRIES; tries++) {
    shuffle(pool, random);
    let next = 0;
    const hands = h.hands.map((hand, s) => {
      const unseen = pool.slice(next, next + hidden[s]);
      next += hidden[s];
      return { shown: hand.replace(/x/g, ''), unseen };
    });
    // a face-down x is one of the seat's pieces it has not placed face-up: an unseen one, or
    // one it is known to hold (the pawns of a 5-pawn hand)
    const left = hands.map((hand) => (hand.shown + hand.unseen.join('')).split(''));
    for (const move of h.moves) {
      if (move[1] === 'p') continue;
      const s = Number(move[0]) - 1;
      for (const c of move[1] === 'x' ? [move[2]] : [move[1], move[2]]) {
        const at = left[s].indexOf(c);
        if (at >= 0) left[s].splice(at, 1);
      }
    }
    const moves = h.moves.map((move) => {
      if (move[1] !== 'x') return move;
      const s = Number(move[0]) - 1;
      if (left[s].length === 0) return move;
      const piece = left[s].splice(Math.floor(random() * left[s].length), 1)[0];
      return move[0] + piece + move[2];
    });
    if (moves.some((move) => move.includes('x'))) continue;
    const full = hands.map((hand) => (hand.shown + hand.unseen.join('')).split('').sort().join(''));
    // a hand with 5 pawns shows them: no other hand may get a fifth, nor that one a sixth
    if (full.some((hand, s) => count(hand, '1') >= 5 && count(hand, '1') !== count(h.hands[s], '1'))) continue;
    const text = [...full, 's' + (h.dealer + 1), ...moves].join(',');
    try {
      const board = goita.Board.createFromString(text);
      if (board.history.moveStack.length === h.moves.length) return board;
    } catch (e) {
      // goita-core refused this deal (a king face-down, a king attack it reads otherwise): again
    }
  }
  throw new Error('no deal of the hidden pieces that goita-core accepts');
}

// Whether our rules allow a move SimpleAI proposes (goita-core reads the kings more freely).
function allowed(move, info, rules) {
  if (move.pass) return true;
  const hand = goita.KomaArray.createFrom(info.hand);
  const kings = goita.KomaArray.count(hand, goita.Koma.ou);
  const size = info.hand.replace(/0/g, '').length; // the hand string is padded with 0
  const lead = !info.lastAttack || info.lastAttack.no === info.turn;
  if (lead && move.block.isKing && rules.kingFaceDown !== 'allowed' && !(kings === 2 && size === 2)) return false;
  if (move.attack.isKing) {
    const kingUp = info.fields.some((f) => goita.KomaArray.contains(goita.KomaArray.createFrom(f), goita.Koma.ou)) ||
      (!lead && move.block.isKing);
    const last = size === 2;
    if (!kingUp && !(kings === 2 && rules.kingAttack !== 'a_or_last') && !(last && rules.kingAttack !== 'a_or_b')) {
      return false;
    }
  }
  return true;
}

function bestMove(historyText, rules, seed) {
  const h = readHistory(historyText);
  const decider = pendingDecider(h);
  const ai = new SimpleAI();
  if (decider >= 0) return `${decider + 1}${ai.continueGoshi(null) ? 'g' : 'r'}`;
  const random = seeded(seed);
  goita.Util.rand = new Random(Random.engines.mt19937().seed(seed >>> 0));
  const board = fill(h, random);
  const info = board.toThinkingInfo();
  // SimpleAI.chooseMove: its evaluation plus a random 0-5, best first
  const moves = ai.evalMoves(info);
  moves.forEach((m) => { m.score += goita.Util.rand.integer(0, 5); });
  moves.sort((a, b) => b.score - a.score);
  const pick = moves.find((m) => allowed(m.move, info, rules));
  if (!pick) throw new Error('SimpleAI proposed no move these rules allow');
  return pick.move.toOpenString();
}

function main() {
  let rules = readRules('');
  let position = null;
  const say = (line) => process.stdout.write(line + '\n');
  const input = readline.createInterface({ input: process.stdin });
  input.on('line', (raw) => {
    const line = raw.trim();
    const space = line.indexOf(' ');
    const command = space < 0 ? line : line.slice(0, space);
    const args = space < 0 ? '' : line.slice(space + 1).trim();
    try {
      if (command === 'goita') {
        say('id name goita-ai-sample 0.1.1 SimpleAI');
        say('id author yoskeoka (adapter: the goita project)');
        say(`goitaok ${PROTOCOL_VERSION}`);
      } else if (command === 'isready') {
        say('readyok');
      } else if (command === 'rules') {
        const r = readRules(args);
        if (r.players !== 4) say('error rules: SimpleAI plays 4-player Goita only');
        else rules = r;
      } else if (command === 'position') {
        readHistory(args);
        position = args;
      } else if (command === 'score' || command === '') {
        // SimpleAI does not look at the scores
      } else if (command === 'go') {
        if (!position) throw new Error('no position');
        const m = /^seed (\d+)$/.exec(args);
        const seed = m ? Number(BigInt(m[1]) % 4294967296n) : 0;
        say(`bestmove ${bestMove(position, rules, seed)}`);
      } else if (command === 'quit') {
        input.close();
        process.exit(0);
      } else {
        say(`error unknown command "${command}"`);
      }
    } catch (e) {
      say(`error ${command}: ${e.message}`);
    }
  });
}

main();
