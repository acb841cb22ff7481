// What tests/activity/test_table.py checks of a layout, run in the page: a list of problems.
const problems = [];
const vw = innerWidth, vh = innerHeight;
const box = (el) => el.getBoundingClientRect();
const name = (el) => el.className.baseVal !== undefined ? 'svg' :
  (el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : ''));
const visible = (el) => { const s = getComputedStyle(el); const r = box(el);
  return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0; };
// 1. No text overflows its box (an ellipsis is the intended way to shorten a name).
for (const el of document.querySelectorAll('#app *')) {
  if (el.closest('svg') || !visible(el)) continue;
  const s = getComputedStyle(el);
  if (s.textOverflow === 'ellipsis') continue;
  if (['auto', 'scroll'].includes(s.overflowX) || ['auto', 'scroll'].includes(s.overflowY)) continue;
  if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
    problems.push('overflows its width: ' + name(el) + ' ' + el.scrollWidth + '>' + el.clientWidth);
  if (el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0 && s.overflowY === 'hidden')
    problems.push('overflows its height: ' + name(el));
}
// 2. Everything on screen.
for (const el of document.querySelectorAll('#app > *, .seat, .played, button, .trump, .say')) {
  if (!visible(el)) continue;
  const r = box(el);
  if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1)
    problems.push('off screen: ' + name(el) + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
}
// 3. The trick fits in the middle of the table without scrolling (a hand's result or the
// final ranking may scroll there on a short screen: it is read, not played on).
const center = document.querySelector('.center');
if (document.querySelector('.center > .trick') && center.scrollHeight > center.clientHeight + 1)
  problems.push('the trick area scrolls');
// 4. Regions and panels do not overlap one another.
const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
const blocks = [...document.querySelectorAll('.bar, .seat, .center, .prompt, .fan, .trump')]
  .filter(visible);
for (let i = 0; i < blocks.length; i++) for (let j = i + 1; j < blocks.length; j++) {
  if (blocks[i].contains(blocks[j]) || blocks[j].contains(blocks[i])) continue;
  if (overlap(box(blocks[i]), box(blocks[j])))
    problems.push('overlap: ' + name(blocks[i]) + ' / ' + name(blocks[j]));
}
// 5. Played cards never overlap; in the fan each card leaves at least its corner index in view.
const played = [...document.querySelectorAll('.played .face')].map(box);
for (let i = 0; i < played.length; i++) for (let j = i + 1; j < played.length; j++)
  if (overlap(played[i], played[j])) problems.push('trick cards overlap');
// (A long hand may lie in two rows: steps are counted within a row.)
const cards = [...document.querySelectorAll('.fan .card')];
const fan = cards.map(box);
for (let i = 1; i < fan.length; i++) {
  if (cards[i].parentElement !== cards[i - 1].parentElement) continue;
  const step = fan[i].left - fan[i - 1].left;
  if (step < fan[i].width * 0.3) problems.push('fan too tight: step ' + step + ' of ' + fan[i].width);
}
const cw = fan.length ? fan[0].width : 0;
// 6. Every name whole (issue 46): a seat's name, its tags (a partner's team), a trick card's
// player: none cut short, by an ellipsis or by its box.
for (const el of document.querySelectorAll('.seat .name, .seat .tags, .played figcaption, .result .nm')) {
  if (!visible(el)) continue;
  if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
    problems.push('name cut: ' + JSON.stringify(el.textContent));
}
// 7. The share of the height the cards take: the hand's rows and the trick, as laid out.
const span = (els) => {
  const rects = els.filter(visible).map(box);
  if (!rects.length) return 0;
  return Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
};
const handHeight = span(cards);
const trickHeight = span([...document.querySelectorAll('.played .face')]);
return {problems, cw, vw, vh, cards: fan.length, handHeight, trickHeight,
  share: (handHeight + trickHeight) / vh};
