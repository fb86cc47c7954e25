// The console's layout checks (LayoutBrowserIT): what a reader of the page would call broken, found on the rendered
// boxes rather than on any one page's markup. Returns one line per problem; none is a page laid out right.
return (function () {
  const problems = [];
  const describe = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(c => c && !c.startsWith('ui-')).slice(0, 2) : [];
    if (cls.length) s += '.' + cls.join('.');
    return s;
  };
  const shown = el => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return false;
    }
    return true;
  };
  const lines = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: n => n.textContent.trim() && !['SCRIPT', 'STYLE', 'OPTION', 'TEXTAREA'].includes(n.parentElement.tagName)
        ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!shown(n.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = Array.from(range.getClientRects()).filter(r => r.width > 0.5 && r.height > 0.5);
    if (!rects.length) continue;
    const text = n.textContent.trim().replace(/\s+/g, ' ');
    // 1. clipped: text beyond an ancestor that hides its overflow (a scrolling one is fine: nothing is lost)
    for (let a = n.parentElement; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'hidden' || cs.overflowX === 'clip' || cs.textOverflow === 'ellipsis') {
        const box = a.getBoundingClientRect();
        if (rects.some(r => r.right > box.right + 1 || r.left < box.left - 1)) {
          problems.push('clipped: "' + text.slice(0, 40) + '" in ' + describe(a));
          break;
        }
      }
    }
    // 2. a word broken into a letter or two per line (a squeezed column)
    if (rects.length >= 3 && text.length > 3 && Math.max(...rects.map(r => r.width)) < 22) {
      problems.push('squeezed to ' + rects.length + ' lines of one or two letters: "' + text.slice(0, 40) + '" in ' + describe(n.parentElement));
    }
    rects.forEach(r => lines.push({r, text, el: n.parentElement, node: n}));
  }
  // 3. text over text: two line boxes of different text nodes that overlap (headers over each other)
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i], b = lines[j];
      if (a.node === b.node) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 2) {
        problems.push('overlapping: "' + a.text.slice(0, 30) + '" (' + describe(a.el) + ') and "' + b.text.slice(0, 30) + '" (' + describe(b.el) + ')');
      }
    }
  }
  // 4. words run together: two controls or links side by side on one line without a gap ("Findother searches")
  const controls = Array.from(document.querySelectorAll('a, button, input, select, label, .ui-button')).filter(shown);
  for (let i = 0; i < controls.length; i++) {
    for (let j = 0; j < controls.length; j++) {
      if (i === j || controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
      const a = controls[i].getBoundingClientRect(), b = controls[j].getBoundingClientRect();
      if (a.width < 1 || b.width < 1) continue;
      const sameLine = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > Math.min(a.height, b.height) / 2;
      const gap = b.left - a.right;
      if (sameLine && gap > -1 && gap < 3) {
        problems.push('no gap between ' + describe(controls[i]) + ' "' + (controls[i].innerText || controls[i].value || '').trim().slice(0, 20)
            + '" and ' + describe(controls[j]) + ' "' + (controls[j].innerText || controls[j].value || '').trim().slice(0, 20) + '"');
      }
    }
  }
  // 5. the page itself wider than the window (a wide table scrolls inside its own box instead)
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
  }
  return Array.from(new Set(problems));
})();
