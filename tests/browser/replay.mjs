// The replay page in a real browser (run by tests/browser.rs): playwright-core driving the
// system Chromium, the page opened from disk. Steps forward to a record where a unit moved,
// checks the counter stands at its new hex and the record's narration line is highlighted,
// steps back, checks again, and saves screenshots; on a whole game's page, measures when the
// first frame was drawn and steps to the end.
//
//   node replay.mjs SPEC.json
//
// SPEC: { chromium, shots, short: { page, steps, unit, hex, before }, whole: { page, max_ms } }
// Prints one line a check and ends with `N passed, N failed`.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? "ok" : "FAILED"}: ${name}${detail === undefined ? "" : ` (${detail})`}`);
}

const browser = await chromium.launch({
  executablePath: spec.chromium,
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // The short game: step to a move and back.
  const s = spec.short;
  await page.goto(pathToFileURL(s.page).href);
  await page.waitForSelector("body[data-ready='1']");
  const hexOf = () => page.getAttribute(`g.unit[data-unit="${s.unit}"]`, "data-hex");
  check("the unit starts where the game put it", (await hexOf()) === s.before, await hexOf());
  for (let i = 0; i < s.steps; i++) await page.keyboard.press("ArrowRight");
  check("stepping forward reaches the record", (await page.evaluate(() => window.replay.cur)) === s.steps - 1);
  check(`${s.unit} stands at its new hex ${s.hex}`, (await hexOf()) === s.hex, await hexOf());
  const lit = await page.$$eval("#narration li.current", (l) => l.map((x) => Number(x.dataset.seq)));
  check("the record's narration line alone is highlighted", lit.length === 1 && lit[0] === s.steps - 1, JSON.stringify(lit));
  const routes = await page.$$eval("#overlay polyline.route", (l) => l.length);
  check("the move is drawn as its route", routes >= 1, routes);
  await page.screenshot({ path: path.join(spec.shots, "replay-short-moved.png") });
  await page.keyboard.press("ArrowLeft");
  check(`stepping back puts ${s.unit} back at ${s.before}`, (await hexOf()) === s.before, await hexOf());
  const back = await page.$$eval("#narration li.current", (l) => l.map((x) => Number(x.dataset.seq)));
  check("stepping back highlights the record before", back.length === 1 && back[0] === s.steps - 2, JSON.stringify(back));
  await page.keyboard.press("End");
  await page.keyboard.press("Home");
  check("End then Home comes back to the start", (await hexOf()) === s.before && (await page.evaluate(() => window.replay.cur)) === -1);
  const opts = await page.$$eval("#narration li.decision .opts", (l) => l.map((x) => x.textContent));
  check("decisions say among which options they chose", opts.length > 0 && opts.every((t) => t.startsWith("among: ") || t.startsWith("one of ")), opts[0]);
  await page.screenshot({ path: path.join(spec.shots, "replay-short-back.png") });

  // The whole game: the first frame within the budget, and every record steps.
  const w = spec.whole;
  await page.goto(pathToFileURL(w.page).href);
  await page.waitForSelector("body[data-ready='1']");
  const drawn = await page.evaluate(() => window.replay.drawnAt);
  check(`the whole game's first frame is drawn within ${w.max_ms} ms`, drawn < w.max_ms, `${drawn.toFixed(0)} ms after navigation`);
  const records = await page.evaluate(() => window.replay.records);
  const t0 = Date.now();
  await page.keyboard.press("End");
  const atEnd = await page.evaluate(() => window.replay.cur);
  check("End steps through every record", atEnd === records - 1, `${atEnd + 1} of ${records} in ${Date.now() - t0} ms`);
  await page.keyboard.press("PageUp");
  const turnLine = await page.$eval("#narration li.current", (l) => l.className);
  check("Page Up goes to the start of a turn", turnLine.includes("turn"), turnLine);
  await page.screenshot({ path: path.join(spec.shots, "replay-whole-game.png") });
  check("the page raised no script error", errors.length === 0, errors.join("; "));
  console.log(`first frame: ${drawn.toFixed(0)} ms; records: ${records}`);
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
