// What the Chromium tests do at the browser client's table (round.js, modes.js).
'use strict';

async function text(page, selector) { return (await page.textContent(selector)) || ''; }

// The prompts of a move to make: a lead, an answer, and the attack after a chosen block ("Now
// choose the piece to attack with").
const MOVE_PROMPT = /[Cc]hoose|Answer/;

// Clicks a move button, unless the table changed under the step and the button went with it
// (a state drawn again between reading the prompt and the click): then the step did not act
// and the next one starts from the table as it is. A button that never comes back still fails
// the test, whose game then does not end.
async function clickIfStill(button) {
  try {
    await button.click({ timeout: 5000 });
    return true;
  } catch (e) {
    if (e.name === 'TimeoutError' && (await button.count()) === 0) return false;
    throw e;
  }
}

// One step for a page whose turn it is: a 5-pawn decision, a pass (now and then), or a block
// then an attack from the pieces the client lets it click. Returns whether it acted; fail(why)
// ends the test.
async function act(page, rng, fail) {
  const enabled = page.locator('#hand button.tile:not([disabled]):not(.chosen)');
  const buttons = page.locator('#actions button');
  const prompt = await text(page, '#prompt');
  if (/Your partner has five pawns/.test(prompt)) {
    // the buttons come with the prompt's state; a prompt read just before a redraw may have
    // none yet: then the step waits for the next state instead of for a button
    const go = buttons.filter({ hasText: 'Play on' });
    if (!(await go.count())) return false;
    return clickIfStill(go);
  }
  if (!MOVE_PROMPT.test(prompt)) return false;
  const pass = buttons.filter({ hasText: 'Pass' });
  if ((await pass.count()) && (/Answer/.test(prompt) && rng() < 0.4)) return clickIfStill(pass);
  if ((await enabled.count()) === 0) return (await pass.count()) ? clickIfStill(pass) : false;
  // A block chosen in an earlier step whose attack did not land (the table changed under the
  // click) is still chosen: the step goes on from it instead of clicking it away.
  // A tile counted enabled may be redrawn disabled before the click (the state changed under
  // it, as under the sanitizers' load): the step ends and the next one looks again.
  if ((await page.locator('#hand button.tile.chosen').count()) === 0) {
    const chose = await enabled.first().click({ timeout: 3000 }).then(() => page.waitForSelector('#hand button.tile.chosen', { timeout: 3000 }))
      .then(() => true, () => false);
    if (!chose) return false;
  }
  const second = page.locator('#hand button.tile:not([disabled]):not(.chosen)');
  if ((await second.count()) === 0) {
    // The turn may have moved on under the step (the hand redrawn without a move to make):
    // only a table still asking for this move, a second later, with no attack offered fails.
    await page.waitForTimeout(1000);
    if (!MOVE_PROMPT.test(await text(page, '#prompt'))) return false;
    if ((await page.locator('#hand button.tile.chosen').count()) === 0) return false;
    if ((await second.count()) === 0) fail('a block was chosen but no attack could be');
  }
  return clickIfStill(second.first());
}

module.exports = { text, act };
