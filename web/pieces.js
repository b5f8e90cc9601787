// Goita's pieces as the page draws them: wooden pentagons (an inline SVG outline under the
// kanji, in the font the server ships), face-down ones dark, with a name for screen readers.
'use strict';

const KANJI = { 1: 'し', 2: '香', 3: '馬', 4: '銀', 5: '金', 6: '角', 7: '飛', 8: '王', 9: '玉' };
const ENGLISH = { 1: 'pawn', 2: 'lance', 3: 'knight', 4: 'silver', 5: 'gold', 6: 'bishop', 7: 'rook', 8: 'king', 9: 'king' };
const SVG_NS = 'http://www.w3.org/2000/svg';

// What a piece is called in the page's language: its kanji in Japanese, its name in English.
function pieceName(mark) {
  const m = Number(mark);
  if (!m) return t('hidden_piece');
  return lang === 'en' ? `${ENGLISH[m]} ${KANJI[m]}` : KANJI[m];
}

// The pentagon outline of a piece, pointed end up, drawn behind its kanji.
function pieceOutline() {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 40 46');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('preserveAspectRatio', 'none');
  const shape = document.createElementNS(SVG_NS, 'polygon');
  shape.setAttribute('points', '20,1.5 36.5,8 39,44.5 1,44.5 3.5,8');
  shape.setAttribute('class', 'wood');
  svg.append(shape);
  return svg;
}

// One piece. mark is a digit (0 for one the viewer may not see); options: down (placed
// face-down), button (a piece of the viewer's hand to click), attack, label (what a screen
// reader says instead of the piece's name).
function tile(mark, options) {
  const o = options || {};
  const m = Number(mark);
  const classes = ['tile'];
  if (!m || o.down) classes.push('back');
  if (o.down && m) classes.push('known');
  if (m === 8 || m === 9) classes.push('red');
  if (o.attack) classes.push('attack');
  const node = document.createElement(o.button ? 'button' : 'span');
  node.className = classes.join(' ');
  node.append(pieceOutline());
  const face = document.createElement('span');
  face.className = 'face kanji';
  face.setAttribute('aria-hidden', 'true');
  face.textContent = m ? KANJI[m] : '';
  node.append(face);
  let label = o.label || pieceName(m);
  if (o.down && m && !o.label) label = `${label} (${t('face_down_piece')})`;
  node.setAttribute('aria-label', label);
  node.title = label;
  if (o.button) node.type = 'button';
  else node.setAttribute('role', 'img');
  return node;
}
