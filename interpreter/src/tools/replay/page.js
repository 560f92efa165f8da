// The replay page's script: it only places counters, swaps their appearances (drawn once each,
// in the SVG's <defs>, by the Rust board), highlights the narration and draws the overlays.
// DATA (written by interpreter/src/tools/replay.rs): units [{id,name,side}], hexes {id:[x,y]},
// stack [[dx,dy]], start [[hex,look]], phase, tracks {name:value}, hex_size, and frames, one a
// record:
// t turn, k kind (turn|roll|decision|event), x text, n turn number, d [side,agent,kind],
// e event kind, a [[from hexes], to] arrow, u [[unit, hex, look, old hex, old look]],
// r [[hexes]] routes, p [phase, old phase], v [[track, value, old value]],
// m [[hex, badges, old badges]] hex markers (badges: a drawn set in <defs>, -1 none); the start's
// hex markers are marks [[hex, badges]], placed at marks_at from the hex centre.
"use strict";
(function () {
  const F = DATA.frames;
  const N = F.length;
  const SVG = "http://www.w3.org/2000/svg";
  const pos = DATA.start.map((s) => s[0]);
  const look = DATA.start.map((s) => s[1]);
  while (pos.length < DATA.units.length) { pos.push(null); look.push(0); }
  const marks = {};
  for (const [h, b] of DATA.marks) marks[h] = b;
  const marksLayer = document.getElementById("hexmarks");
  let phase = DATA.phase;
  const tracks = Object.assign({}, DATA.tracks);
  let cur = -1; // the record last applied; -1: the start
  let timer = null;

  const $ = (id) => document.getElementById(id);
  const unitsLayer = $("units");
  const overlay = $("overlay");
  // Routes, arrows and their labels are drawn for a hex of 32 pixels; other maps scale them.
  const K = (DATA.hex_size || 32) / 32;
  overlay.style.setProperty("--k", K);
  const list = $("narration");

  // One element a unit, made once; moving it is a transform, its face a <use>.
  const els = DATA.units.map((u) => {
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "unit");
    g.setAttribute("data-unit", u.id);
    const use = document.createElementNS(SVG, "use");
    g.appendChild(use);
    const title = document.createElementNS(SVG, "title");
    title.textContent = u.name + " (" + u.side + ")";
    g.appendChild(title);
    unitsLayer.appendChild(g);
    return { g, use, at: undefined, look: -1, transform: "" };
  });

  // The narration, one line a record.
  const lines = [];
  const frag = document.createDocumentFragment();
  const turnSelect = $("jump");
  F.forEach((f, i) => {
    const li = document.createElement("li");
    li.className = f.k;
    li.dataset.seq = i;
    if (f.k === "decision" && f.d) {
      const who = f.d[0] + " (" + f.d[1] + ")";
      const span = document.createElement("span");
      span.className = "who";
      span.textContent = who;
      li.appendChild(span);
      li.appendChild(document.createTextNode(f.x.startsWith(who) ? f.x.slice(who.length) : " " + f.x));
      if (f.o !== undefined) {
        const o = document.createElement("div");
        o.className = "opts";
        o.textContent = Array.isArray(f.o) ? "among: " + f.o.join(" · ") : "one of " + f.o + " options";
        li.appendChild(o);
      }
    } else {
      li.textContent = f.x;
    }
    frag.appendChild(li);
    lines.push(li);
    if (f.k === "turn") {
      const o = document.createElement("option");
      o.value = i;
      o.textContent = f.n;
      turnSelect.appendChild(o);
    }
  });
  list.appendChild(frag);
  const turnStarts = F.map((f, i) => (f.k === "turn" ? i : -1)).filter((i) => i >= 0);

  function apply(i, forward) {
    const f = F[i];
    if (f.u) for (const c of f.u) {
      pos[c[0]] = forward ? c[1] : c[3];
      look[c[0]] = forward ? c[2] : c[4];
    }
    if (f.m) for (const m of f.m) marks[m[0]] = forward ? m[1] : m[2];
    if (f.p) phase = forward ? f.p[0] : f.p[1];
    if (f.v) for (const v of f.v) tracks[v[0]] = forward ? v[1] : v[2];
  }

  function line(x1, y1, x2, y2, cls) {
    const l = document.createElementNS(SVG, "line");
    l.setAttribute("x1", x1); l.setAttribute("y1", y1);
    l.setAttribute("x2", x2); l.setAttribute("y2", y2);
    l.setAttribute("class", cls);
    return l;
  }

  function drawOverlay(f) {
    overlay.replaceChildren();
    if (!f) return;
    for (const route of f.r || []) {
      const pts = route.map((h) => DATA.hexes[h]).filter(Boolean).map((p) => p.join(",")).join(" ");
      const pl = document.createElementNS(SVG, "polyline");
      pl.setAttribute("points", pts);
      pl.setAttribute("class", "route");
      overlay.appendChild(pl);
    }
    if (f.a) {
      const to = DATA.hexes[f.a[1]];
      let mx = 0, my = 0;
      for (const h of f.a[0]) {
        const p = DATA.hexes[h];
        if (!p) continue;
        // Stop short of the target's centre, so the head shows beside its counters.
        const dx = to[0] - p[0], dy = to[1] - p[1];
        const d = Math.hypot(dx, dy) || 1;
        overlay.appendChild(line(p[0], p[1], to[0] - dx / d * 14 * K, to[1] - dy / d * 14 * K, "arrow"));
        mx += p[0]; my += p[1];
      }
      const n = f.a[0].length || 1;
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", (mx / n + to[0]) / 2);
      t.setAttribute("y", (my / n + to[1]) / 2 - 6 * K);
      t.setAttribute("class", "label");
      t.textContent = f.x.length > 90 ? f.x.slice(0, 87) + "..." : f.x;
      overlay.appendChild(t);
    }
  }

  // The hex markers (few hexes have any: drawn afresh at every step).
  function drawMarks() {
    const shown = Object.keys(marks).filter((h) => marks[h] >= 0 && DATA.hexes[h]);
    marksLayer.replaceChildren(...shown.map((h) => {
      const u = document.createElementNS(SVG, "use");
      u.setAttribute("href", "#M" + marks[h]);
      u.setAttribute("class", "hex-markers");
      u.setAttribute("data-hex", h);
      const c = DATA.hexes[h];
      u.setAttribute("transform", "translate(" + (c[0] + DATA.marks_at[0]) + " " + (c[1] + DATA.marks_at[1]) + ")");
      return u;
    }));
  }

  let lit = null;
  function render() {
    const count = {};
    const stack = DATA.stack;
    const f = cur >= 0 ? F[cur] : null;
    const changed = new Set(f && f.u ? f.u.map((c) => c[0]) : []);
    for (let i = 0; i < els.length; i++) {
      const e = els[i];
      const h = pos[i];
      if (e.look !== look[i]) {
        e.use.setAttribute("href", "#L" + look[i]);
        e.look = look[i];
      }
      if (h === null || !DATA.hexes[h]) {
        if (e.at !== null) { e.g.style.display = "none"; e.g.removeAttribute("data-hex"); e.at = null; }
      } else {
        const k = count[h] || 0;
        count[h] = k + 1;
        const c = DATA.hexes[h];
        const o = stack[Math.min(k, stack.length - 1)];
        const tr = "translate(" + (c[0] + o[0]) + " " + (c[1] + o[1]) + ")";
        if (e.transform !== tr) { e.g.setAttribute("transform", tr); e.transform = tr; }
        if (e.at !== h) { e.g.style.display = ""; e.g.setAttribute("data-hex", h); e.at = h; }
      }
      e.g.classList.toggle("changed", changed.has(i));
    }
    drawMarks();
    // Moved or changed counters on top of their stacks' neighbours.
    for (const i of changed) unitsLayer.appendChild(els[i].g);
    drawOverlay(f);
    if (lit) lit.classList.remove("current");
    lit = f ? lines[cur] : null;
    if (lit) {
      lit.classList.add("current");
      lit.scrollIntoView({ block: "nearest" });
    }
    const turn = f ? f.t : (N ? F[0].t : "");
    $("turn").textContent = "Turn " + turn;
    $("phase").textContent = phase ? "· " + phase : "";
    $("tracks").replaceChildren(...Object.keys(tracks).map((k) => {
      const s = document.createElement("span");
      s.className = "track";
      s.textContent = k + " " + tracks[k];
      return s;
    }));
    $("where").textContent = (cur + 1) + " / " + N;
    let ti = -1;
    for (const s of turnStarts) if (s <= cur) ti = s;
    if (ti >= 0) turnSelect.value = ti;
  }

  function go(n) {
    n = Math.max(-1, Math.min(N - 1, n));
    while (cur < n) apply(++cur, true);
    while (cur > n) apply(cur--, false);
    render();
  }

  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      timer = setInterval(() => {
        if (cur >= N - 1) { play(false); return; }
        go(cur + 1);
      }, Number($("speed").value));
    }
    $("play").textContent = timer ? "||" : "\u25B6";
  }

  function turnStep(dir) {
    if (dir > 0) {
      const next = turnStarts.find((s) => s > cur);
      go(next === undefined ? N - 1 : next);
    } else {
      const before = turnStarts.filter((s) => s < cur);
      go(before.length ? before[before.length - 1] : -1);
    }
  }

  $("first").onclick = () => go(-1);
  $("last").onclick = () => go(N - 1);
  $("back").onclick = () => go(cur - 1);
  $("fwd").onclick = () => go(cur + 1);
  $("prevturn").onclick = () => turnStep(-1);
  $("nextturn").onclick = () => turnStep(1);
  $("play").onclick = () => play(!timer);
  $("speed").onchange = () => { if (timer) play(true); };
  turnSelect.onchange = () => go(Number(turnSelect.value));
  list.onclick = (ev) => {
    const li = ev.target.closest("li");
    if (li) go(Number(li.dataset.seq));
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "SELECT" && ev.key !== " ") return;
    const keys = {
      ArrowRight: () => go(cur + 1),
      ArrowLeft: () => go(cur - 1),
      " ": () => play(!timer),
      Home: () => go(-1),
      End: () => go(N - 1),
      PageDown: () => turnStep(1),
      PageUp: () => turnStep(-1),
    };
    const f = keys[ev.key];
    if (f) { ev.preventDefault(); f(); }
  });

  // The map: the wheel zooms about the pointer, a drag pans, a double click shows it whole.
  const board = document.getElementById("board");
  const whole = board.getAttribute("viewBox").split(" ").map(Number);
  let view = whole.slice();
  const show = () => board.setAttribute("viewBox", view.join(" "));
  const perPixel = () => {
    const r = board.getBoundingClientRect();
    return Math.max(view[2] / r.width, view[3] / r.height);
  };
  board.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(board.getScreenCTM().inverse());
    const k = ev.deltaY < 0 ? 0.8 : 1.25;
    const w = Math.min(whole[2], Math.max(whole[2] / 20, view[2] * k));
    const s = w / view[2];
    view = [p.x - (p.x - view[0]) * s, p.y - (p.y - view[1]) * s, w, view[3] * s];
    show();
  }, { passive: false });
  let drag = null;
  board.addEventListener("pointerdown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, at: view.slice(), k: perPixel() }; });
  window.addEventListener("pointerup", () => { drag = null; });
  board.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    view = [drag.at[0] - (ev.clientX - drag.x) * drag.k, drag.at[1] - (ev.clientY - drag.y) * drag.k, view[2], view[3]];
    show();
  });
  board.addEventListener("dblclick", () => { view = whole.slice(); show(); });

  render();
  window.replay = { go, get cur() { return cur; }, records: N, drawnAt: performance.now() };
  document.body.dataset.ready = "1";
})();
