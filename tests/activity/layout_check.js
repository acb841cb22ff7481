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
const fan = [...document.querySelectorAll('.fan .card')].map(box);
for (let i = 1; i < fan.length; i++) {
  const step = fan[i].left - fan[i - 1].left;
  if (step < fan[i].width * 0.3) problems.push('fan too tight: step ' + step + ' of ' + fan[i].width);
}
const cw = fan.length ? fan[0].width : 0;
return {problems, cw, vw, vh, cards: fan.length};
