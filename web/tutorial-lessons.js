// The tutorial's lessons (tutorial.js plays them). Each lesson explains one part of the rules in
// Japanese and English and ends with an exercise on a real position: a full history string
// (the hands as dealt, the dealer, the moves so far) that the WebAssembly engine loads, checks
// and plays on. The reader always sits in seat 1, the partner opposite in seat 3.
//
// A text is a string or a function of the context { rs: the rule set (standard, japanese or
// french), p: points written on that rule set's scale }. An exercise's goal is checked on what
// the engine answers, never on rules written here:
// - best: every move of the reader must be worth as much as the exact solver's best move, and
//   the round must end;
// - lead_again: after the reader's lead, the lead comes back to the reader;
// - answer: the reader answers the attack with a piece of kind `kind`;
// - decide: the reader's 5-pawn decision is `want` (g play on, r redeal);
// - quiz: the reader picks what happens to the position; each choice is a test of the state the
//   engine reached on loading it, and the right one is the one that holds.
'use strict';

window.goitaLessons = [
  {
    id: 'pieces',
    title: { en: 'The pieces', ja: '駒' },
    text: {
      en: [
        'A set has 32 pieces of 8 kinds. Four players sit round the table, each dealt 8 pieces; you and the player opposite are one team against the two others.',
        (c) => `The two kings 王 and 玉 are one kind. The first player to put down every piece wins the round, and the team scores the value of that last attacking piece.${c.rs === 'french' ? ' These rules write points as the French cards print them: し 1 … king 5, a game to 15.' : ' A game is played to 150.'}`,
      ],
      ja: [
        '駒は 8 種類 32 枚です。4 人が卓を囲み、1 人 8 枚ずつ配られます。向かいの人が味方で、残りの 2 人と戦います。',
        (c) => `王と玉は同じ駒として扱います。最初に手駒をすべて出した人がその局の上がりで、最後に攻めた駒の点がその組に入ります。${c.rs === 'french' ? 'このルールではフランス版のカードどおり、し 1 点〜王 5 点、15 点先取で数えます。' : '150 点先取で勝ちです。'}`,
      ],
    },
    pieceTable: true,
    history: '11345672,11123456,11123457,11234589,s1,113,2p,3p,4p,114,2p,3p,4p,156,2p,3p,4p',
    goal: { type: 'best' },
    task: {
      en: 'Exercise: you have the lead with your last two pieces, 飛 and 香. One goes face-down, the other attacks and ends the round. Go out with the most points.',
      ja: '練習: 残りの 2 枚は飛と香で、あなたの攻めの番です。1 枚を伏せ、もう 1 枚で攻めて上がります。いちばん多い点で上がってください。',
    },
    done: {
      en: (c) => `The round ends on 飛, worth ${c.p(40)}; 香 would have scored ${c.p(20)}.`,
      ja: (c) => `飛で上がって ${c.p(40)} 点。香なら ${c.p(20)} 点でした。`,
    },
    miss: {
      en: 'The attacking piece decides the points, and 飛 is worth more than 香.',
      ja: '点になるのは攻めた駒です。飛は香より高い駒です。',
    },
  },
  {
    id: 'lead',
    title: { en: 'Leading: face-down, then attack', ja: '攻め: 伏せてから攻める' },
    text: {
      en: [
        'The dealer moves first. A lead puts down two pieces: one face-down in your upper row, which only you know, and one face-up in your lower row: the attack.',
        'The others then answer the attack in turn. When all three pass, the lead comes back to you and you lead again.',
      ],
      ja: [
        '親が最初に打ちます。攻めでは 2 枚出します。1 枚は上の列に伏せ (中身はあなたにしか分かりません)、もう 1 枚は下の列に表向きに出します。これが攻め駒です。',
        'ほかの 3 人が順に攻めを受けます。3 人ともなしなら、もう一度あなたが攻めます。',
      ],
    },
    history: '12347789,11123456,11123456,11123455,s1',
    goal: { type: 'lead_again' },
    task: {
      en: 'Exercise: you deal. Lead so that nobody can answer and the lead comes back to you. Only a 飛 or a king answers a 飛, and you hold both 飛 and both kings.',
      ja: '練習: あなたが親です。誰も受けられない攻めをして、攻めの番を取り戻してください。飛を受けられるのは飛と王だけで、飛も王も 2 枚ともあなたの手にあります。',
    },
    done: { en: 'Everybody passed: the lead is yours again.', ja: '全員なし: また攻めの番です。' },
    miss: {
      en: 'Somebody answered your attack. Attack with a piece nobody else can match: 飛.',
      ja: '攻めを受けられました。ほかの誰も受けられない駒、飛で攻めてください。',
    },
  },
  {
    id: 'answer',
    title: { en: 'Answering: the same piece, or pass', ja: '受け: 同じ駒か、なし' },
    text: {
      en: [
        'When another player attacks, you may answer with a piece of the same kind, face-up in your upper row, and attack at once with another piece. The others then answer you.',
        'Or pass (なし): always allowed, even when you could answer. A king answers 飛, 角, 金, 銀 and 馬, but never 香 or し.',
      ],
      ja: [
        'ほかの人が攻めたら、同じ種類の駒を上の列に表向きに出して受け、すぐに別の駒で攻められます。今度はほかの人があなたの攻めを受ける番です。',
        '受けずになし (パス) にしてもかまいません。王は飛・角・金・銀・馬を受けられますが、香としは受けられません。',
      ],
    },
    history: '11234568,11123456,11124579,11233457,s4,413',
    goal: { type: 'answer', kind: 3 },
    task: {
      en: 'Exercise: the player on your left attacked with 馬. Answer it with your 馬 (choose 馬 first), then attack with any piece.',
      ja: '練習: 左の人が馬で攻めました。あなたの馬で受けて (先に馬を選びます)、好きな駒で攻めてください。',
    },
    done: { en: 'You answered 馬 with 馬 and attacked: now the others answer you.', ja: '馬を馬で受けて攻めました。今度はほかの人が受ける番です。' },
    miss: { en: 'Answer with 馬 this time: choose 馬 first, then the piece to attack with.', ja: '今回は馬で受けてください。先に馬を選び、次に攻める駒を選びます。' },
  },
  {
    id: 'king',
    title: { en: 'The kings', ja: '王の決まり' },
    text: {
      en: [
        'A king answers almost any attack, but attacking with a king is limited. Under these rules a king may attack:',
        (c) => ({
          standard: '(a) when a king already lies face-up on the table, (b) when you hold both kings, or (c) as your very last piece. A king may not be led face-down, unless your last two pieces are both kings.',
          japanese: '(a) when a king already lies face-up on the table, or (b) when you were dealt both kings. Not as your last piece: a king that cannot attack goes face-down, the only time it may.',
          french: '(a) when a king already lies face-up on the table, or as your very last piece. Holding both kings gives no right to attack. A king may be put face-down like any piece.',
        })[c.rs],
      ],
      ja: [
        '王はほとんどの攻めを受けられますが、王で攻められるのは決まった時だけです。このルールで王で攻められるのは:',
        (c) => ({
          standard: '(a) 王がすでに場に表向きで出ている時、(b) 王を 2 枚とも持っている時、(c) 最後の 1 枚の時。残りが王 2 枚の時を除き、王を伏せることはできません。',
          japanese: '(a) 王がすでに場に表向きで出ている時、(b) 王を 2 枚とも配られた時。最後の 1 枚でも攻められません。攻められない王は伏せるしかなく、その時だけ伏せられます。',
          french: '(a) 王がすでに場に表向きで出ている時と、最後の 1 枚の時。2 枚持っていても攻められません。王もほかの駒と同じように伏せられます。',
        })[c.rs],
      ],
    },
    history: '11134568,11223456,11234577,11123459,s1,113,2p,3p,4p,114,2p,3p,4p,156,2p,3p,4p',
    goal: { type: 'best' },
    task: {
      en: 'Exercise: your last two pieces are 王 and し, you have the lead and no king is on the table. Go out with the most points these rules allow.',
      ja: '練習: 残りは王としの 2 枚、あなたの攻めの番で、場に王は出ていません。このルールで取れるいちばん多い点で上がってください。',
    },
    done: {
      en: (c) => (c.rs === 'japanese' ? `The king may not attack as the last piece here: it goes face-down and し scores ${c.p(10)}.`
        : `The king may be the last piece: ${c.p(50)} points.`),
      ja: (c) => (c.rs === 'japanese' ? `このルールでは最後の 1 枚でも王で攻められません。王を伏せて、しで ${c.p(10)} 点です。`
        : `最後の 1 枚なら王で攻められます: ${c.p(50)} 点。`),
    },
    miss: { en: 'Look again at which pieces may attack under these rules.', ja: 'このルールでどの駒で攻められるか、もう一度見てください。' },
  },
  {
    id: 'scoring',
    title: { en: 'Going out and doubling', ja: '上がりと倍' },
    text: {
      en: [
        'The round ends when a player puts down the last piece; the team scores the value of that last attack.',
        (c) => `It is doubled when the player led the final move (everyone passed) and the face-down piece is of the attack's kind: 金 over 金 scores ${c.p(60)}, two kings ${c.p(100)}. An answer and an attack of one kind are not doubled. ${c.rs === 'french' ? 'The next seat deals the next round.' : 'The winner deals the next round.'}`,
      ],
      ja: [
        '手駒の最後の 1 枚を出すと上がりで、最後に攻めた駒の点がその組に入ります。',
        (c) => `最後の手が攻め (全員なしの後) で、伏せた駒と攻め駒が同じ種類なら倍になります。金と金なら ${c.p(60)} 点、王 2 枚なら ${c.p(100)} 点。受けと攻めが同じ種類でも倍にはなりません。${c.rs === 'french' ? '次の局は隣の人が親です。' : '次の局は上がった人が親です。'}`,
      ],
    },
    history: '11233455,11123458,11223467,11145679,s2,212,322,4p,1p,2p,313,4p,133,2p,3p,4p,114,2p,3p,4p',
    goal: { type: 'best' },
    task: {
      en: 'Exercise: you have the lead with し, 香, 金 and 金, and every other 香 is already on the table. Finish with a doubled score.',
      ja: '練習: あなたの攻めの番で、手駒はし・香・金・金。ほかの香はすべて場に出ています。倍の点で上がってください。',
    },
    done: {
      en: (c) => `Nobody could answer 香, and 金 over 金 went out doubled: ${c.p(60)}.`,
      ja: (c) => `香は誰も受けられず、金と金で倍の上がり: ${c.p(60)} 点。`,
    },
    miss: {
      en: 'Attack first with the piece nobody can answer, and keep the pair for the end.',
      ja: '先に誰も受けられない駒で攻め、同じ駒の 2 枚は最後に残しましょう。',
    },
  },
  {
    id: 'goshi',
    title: { en: 'Five pawns: the partner decides', ja: '五し: 味方の判断' },
    text: {
      en: [
        'A player dealt exactly five し shows them, and the deal may be cancelled: a redeal (nobody scores, the same dealer deals again) or play on (the five し stay known to all).',
        (c) => (c.rs === 'french'
          ? 'Under these rules the holder speaks first; a redeal needs the partner to agree. Six or more し count the same.'
          : 'The holder\'s partner decides alone. Both partners with five し win the game at once.'),
        'A partner with a strong hand usually plays on; with a weak one, redeals.',
      ],
      ja: [
        'ちょうど 5 枚のしを配られた人はそれを見せ、配り直すかどうかを決めます。配り直し (点はなく、同じ親がもう一度配る) か、このまま打つ (5 枚のしは全員に知られたまま) かです。',
        (c) => (c.rs === 'french'
          ? 'このルールでは持ち主が先に申し出て、配り直しには味方の同意が要ります。6 枚以上のしも同じ扱いです。'
          : '決めるのは持ち主の味方です。味方同士が二人とも五しなら、その組の勝ちで対局が終わります。'),
        '味方の手が強ければ打つ、弱ければ配り直すのがふつうです。',
      ],
    },
    history: { standard: '12567789,11233456,11111234,11234455,s1', japanese: '12567789,11233456,11111234,11234455,s1',
      french: '12567789,11233456,11111234,11234455,s1+3r' },
    goal: { type: 'decide', want: 'g' },
    task: {
      en: (c) => `Exercise: your partner holds five し${c.rs === 'french' ? ' and asks for a redeal' : ''}. Your own hand has both kings and both 飛. Decide.`,
      ja: (c) => `練習: 味方が五しです${c.rs === 'french' ? 'が、配り直しを申し出ています' : ''}。あなたの手には王 2 枚と飛 2 枚があります。決めてください。`,
    },
    done: { en: 'With such a hand your team has the better chances: play on.', ja: 'この手なら打ったほうが有利です。' },
    miss: { en: 'A redeal throws away your strong hand: play on.', ja: '配り直すと強い手を捨てることになります。打ちましょう。' },
  },
  {
    id: 'teyaku',
    title: { en: 'Hand bonuses (teyaku)', ja: '手役' },
    text: {
      en: [
        (c) => (c.rs === 'french'
          ? 'These rules have no hand bonuses: a hand of five or more し may only cancel the deal, as in the last lesson.'
          : `A hand dealt with 6, 7 or 8 し wins the round at once, before any move. 8 し score ${c.p(100)}; 7 し twice the other piece; 6 し the higher of the two others, or twice their value when they are a pair.`),
      ],
      ja: [
        (c) => (c.rs === 'french'
          ? 'このルールには手役がありません。5 枚以上のしは、前の課のように配り直しを決められるだけです。'
          : `しを 6〜8 枚配られたら、打つ前にその局の上がりです。八しは ${c.p(100)} 点、七しは残りの 1 枚の点の 2 倍、六しは残り 2 枚の高いほうの点 (同じ駒 2 枚なら 2 倍)。`),
      ],
    },
    history: '11111166,12234578,12334579,11234455,s1',
    goal: {
      type: 'quiz',
      choices: [
        { en: (c) => `Your team scores ${c.p(40)} at once`, ja: (c) => `すぐに ${c.p(40)} 点`, holds: (g) => g.phase === 'over' && g.result.end === 'teyaku' && g.result.points === 40 },
        { en: (c) => `Your team scores ${c.p(80)} at once`, ja: (c) => `すぐに ${c.p(80)} 点`, holds: (g) => g.phase === 'over' && g.result.end === 'teyaku' && g.result.points === 80 },
        { en: (c) => `Your team scores ${c.p(100)} at once`, ja: (c) => `すぐに ${c.p(100)} 点`, holds: (g) => g.phase === 'over' && g.result.end === 'teyaku' && g.result.points === 100 },
        { en: 'No bonus: the deal may be cancelled', ja: '手役なし: 配り直しを決められる', holds: (g) => g.phase === 'decide' },
      ],
    },
    task: {
      en: 'Exercise: you are dealt six し and two 角. What happens?',
      ja: '練習: しを 6 枚と角を 2 枚配られました。どうなりますか。',
    },
    done: {
      en: (c) => (c.rs === 'french' ? 'No bonus here: the hand counts as five し, and you may ask for a redeal or play on.'
        : `Six し with a pair: twice 角, ${c.p(80)}.`),
      ja: (c) => (c.rs === 'french' ? '手役はありません。五しと同じで、配り直しを申し出るか打つかを選べます。'
        : `六しで残りが同じ駒 2 枚: 角の 2 倍で ${c.p(80)} 点。`),
    },
    miss: { en: 'Not what the engine says: the table shows what happened.', ja: '違います。実際にどうなったかは卓に出ています。' },
  },
  {
    id: 'team',
    title: { en: 'Team play: why a partner passes', ja: '味方との連携: なぜなしにするか' },
    text: {
      en: [
        'You and the player opposite are one team: either of you going out scores for both. So you need not answer your partner\'s attack: passing lets your partner keep the lead.',
        'Watch what your partner shows: a partner close to going out wants the lead back.',
      ],
      ja: [
        'あなたと向かいの人は味方で、どちらが上がっても組の点です。味方の攻めは受けなくてかまいません。なしにすれば味方が攻めの番を保てます。',
        '味方の出した駒を見ましょう。上がりが近い味方は攻めの番を取り戻したいのです。',
      ],
    },
    history: '11123467,11123567,11223455,11344589,s3,313,4p,1p,2p,312,4p,1p,2p,324,4p',
    goal: { type: 'best' },
    task: {
      en: 'Exercise: your partner, with two pieces left, attacks with 銀, and the player on your left passed. You could answer with your 銀. Play what is best for the team.',
      ja: '練習: 残り 2 枚の味方が銀で攻め、左の人はなしでした。あなたは銀で受けられます。組にとっていちばん良い手を打ってください。',
    },
    done: {
      en: (c) => `You passed, nobody could answer, and your partner led 金 over 金: ${c.p(60)} for your team.`,
      ja: (c) => `なしにすると誰も受けられず、味方が金と金で上がり: 組に ${c.p(60)} 点。`,
    },
    miss: {
      en: 'Answering takes the lead from your partner, who keeps a pair for a doubled finish. Pass.',
      ja: '受けると味方から攻めの番を奪います。味方は倍で上がれる 2 枚を残しています。なしにしましょう。',
    },
  },
];
