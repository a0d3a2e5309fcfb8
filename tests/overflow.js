() => {
  const vw = window.innerWidth, out = [];
  const main = document.querySelector('[data-testid=stMain]');
  const scrolls = e => { for (let p = e.parentElement; p && p !== main; p = p.parentElement) {
    const x = getComputedStyle(p).overflowX; if (x === 'auto' || x === 'scroll') return true; } return false; };
  for (const box of [document.documentElement, main])
    if (box.scrollWidth > box.clientWidth + 1) out.push(`page ${box.scrollWidth} px wide`);
  for (const c of document.querySelectorAll('[data-testid=stVegaLiteChart]')) {
    const svg = c.querySelector('svg');
    if (!c.checkVisibility() || !svg || scrolls(svg)) continue;
    const r = svg.getBoundingClientRect();
    if (r.right > vw + 1) out.push(`chart ${c.getAttribute('aria-label') || ''} past the window`);
    for (const t of svg.querySelectorAll(':is(.role-title, .role-legend, .role-axis, .role-mark) text')) {
      const q = t.getBoundingClientRect(), said = JSON.stringify(t.textContent);
      if (t.getAttribute('opacity') === '0' || !q.width) continue;
      if (q.left < r.left - 1 || q.right > r.right + 1 || q.top < r.top - 4 || q.bottom > r.bottom + 4)
        out.push(`${said} outside its chart`);
      if (t.textContent.endsWith('…') && t.closest('.role-title, .role-legend')) out.push(`${said} cut short`);
    }
  }
  const texts = ':is([data-testid=stMain], [data-testid=stSidebar]) :is(p, span, label, div)';
  for (const e of document.querySelectorAll(texts)) {
    if (!e.checkVisibility() || !e.textContent.trim() || scrolls(e)) continue;
    const said = JSON.stringify(e.textContent.slice(0, 60)), style = getComputedStyle(e);
    if (style.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1) out.push(`${said} cut short`);
    if (e.tagName !== 'DIV' && e.getBoundingClientRect().right > vw + 1) out.push(`${said} past the window`);
  }
  return [...new Set(out)];
}
