// The page of `queens serve`: edit a board, send its input file to the JSON API, show the
// answer (the server's SVG), step through a repair plan, complete a board, count and browse
// solutions.
"use strict";

const CROWN =
  "M20 78L12 38L27 58L31 28L41 55L50 20L59 55L69 28L73 58L88 38L80 78Z" +
  "M18 83H82V92H18Z" +
  "M6 38a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z" +
  "M25 28a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z" +
  "M44 20a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z" +
  "M63 28a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z" +
  "M82 38a6 6 0 1 0 12 0a6 6 0 1 0-12 0Z";

const $ = (id) => document.getElementById(id);
const key = (r, c) => r + "," + c;

const EXPLAIN = {
  weight: "Every square holds a number. Place N queens, no two attacking, with the largest sum (or the smallest). Edit the numbers, then Solve.",
  repair: "Click squares to place N queens on an N x N board. Solve finds the fewest real queen moves (no jumping over queens) to a position where no two attack.",
  guard: "Click squares to mark them. Solve finds the fewest queens that stand on or attack every marked square.",
  complete: "Place some queens and block some squares. Solve completes the board to N queens, no two attacking and none on a blocked square, or proves that no completion exists; Count counts the completions.",
};
const HINT = {
  weight: "Type in the squares to change the numbers.",
  repair: "Click a square to add or remove a queen.",
  guard: "Click a square to mark or unmark it.",
  complete: "Click a square: free, then a queen, then blocked, then free again.",
};

// What each problem's board holds; switching tabs keeps it.
const boards = {
  weight: { rows: 8, cols: 8, weights: [] },
  repair: { rows: 8, cols: 8, queens: new Set() },
  guard: { rows: 8, cols: 8, marks: new Set() },
  complete: { rows: 8, cols: 8, queens: new Set(), blocked: new Set() },
};
let problem = "repair";
let downloads = [];
let replay = null; // { n, positions, plan, step, timer }

function rnd(k) {
  return Math.floor(Math.random() * k);
}

function fileName(c) {
  return String.fromCharCode(97 + c);
}

function squareName(r, c, rows, cols) {
  return cols <= 26 ? fileName(c) + (rows - r) : "[" + r + "," + c + "]";
}

function queenSvg() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "queen");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", CROWN);
  svg.appendChild(path);
  return svg;
}

// A board in HTML with coordinates; `fill(square, r, c)` decorates each square.
// The board never grows wider than the window leaves room for (labels and margins aside).
function drawBoard(holder, rows, cols, fill, onClick, pixels = 460) {
  pixels = Math.max(120, Math.min(pixels, document.documentElement.clientWidth - 110));
  const cell = Math.max(14, Math.min(46, Math.floor(pixels / Math.max(rows, cols))));
  holder.style.setProperty("--cell", cell + "px");
  holder.textContent = "";
  const ranks = document.createElement("div");
  ranks.className = "ranks";
  const board = document.createElement("div");
  board.className = "board";
  board.style.gridTemplateColumns = "repeat(" + cols + ", var(--cell))";
  for (let r = 0; r < rows; r++) {
    const label = document.createElement("span");
    label.textContent = cols <= 26 ? String(rows - r) : String(r);
    ranks.appendChild(label);
    for (let c = 0; c < cols; c++) {
      const sq = document.createElement("div");
      sq.className = "square" + ((r + c) % 2 === 1 ? " dark" : "");
      sq.dataset.r = r;
      sq.dataset.c = c;
      sq.id = holder.id + "-" + r + "-" + c;
      sq.title = squareName(r, c, rows, cols) + "  [" + r + ", " + c + "]";
      fill(sq, r, c);
      if (onClick) sq.addEventListener("click", (e) => onClick(r, c, e));
      board.appendChild(sq);
    }
  }
  const corner = document.createElement("span");
  const files = document.createElement("div");
  files.className = "files";
  for (let c = 0; c < cols; c++) {
    const label = document.createElement("span");
    label.textContent = cols <= 26 ? fileName(c) : c % 2 === 0 ? String(c) : "";
    files.appendChild(label);
  }
  holder.append(ranks, board, corner, files);
}

// ----- the editor -----

function ensureWeights(b) {
  const need = b.rows * b.cols;
  while (b.weights.length < need) b.weights.push(1 + rnd(99));
  b.weights.length = need;
}

function renderEditor() {
  const b = boards[problem];
  if (problem === "weight") ensureWeights(b);
  const editable = problem === "weight" && b.rows <= 24;
  drawBoard(
    $("editor"),
    b.rows,
    b.cols,
    (sq, r, c) => {
      if (problem === "repair" && b.queens.has(key(r, c))) sq.appendChild(queenSvg());
      if (problem === "guard" && b.marks.has(key(r, c))) sq.classList.add("mark");
      if (problem === "complete" && b.queens.has(key(r, c))) sq.appendChild(queenSvg());
      if (problem === "complete" && b.blocked.has(key(r, c))) sq.classList.add("blocked");
      if (problem === "weight") {
        const w = b.weights[r * b.cols + c];
        const lo = Math.min(...b.weights), hi = Math.max(...b.weights);
        const t = hi > lo ? (w - lo) / (hi - lo) : 0.4;
        sq.style.background = "hsl(" + (40 - 35 * t) + ", 90%, " + (94 - 42 * t) + "%)";
        if (editable) {
          const input = document.createElement("input");
          input.className = "weight";
          input.value = w;
          input.addEventListener("change", () => {
            const v = Number(input.value);
            if (Number.isInteger(v)) b.weights[r * b.cols + c] = v;
            syncText();
            renderEditor();
          });
          sq.appendChild(input);
        }
      }
    },
    (r, c, e) => {
      if (problem === "repair") toggle(b.queens, key(r, c));
      else if (problem === "guard") toggle(b.marks, key(r, c));
      else if (problem === "complete") cycle(b, key(r, c));
      else return;
      syncText();
      renderEditor();
    }
  );
  let count = "";
  if (problem === "repair") count = b.queens.size + " of " + b.rows + " queens placed. ";
  if (problem === "complete") {
    count = plural(b.queens.size, "queen") + " placed, " + plural(b.blocked.size, "square") + " blocked. ";
  }
  $("hint").textContent = count + HINT[problem];
}

function toggle(set, k) {
  if (set.has(k)) set.delete(k);
  else set.add(k);
}

// A completion square cycles free -> queen -> blocked -> free.
function cycle(b, k) {
  if (b.queens.has(k)) {
    b.queens.delete(k);
    b.blocked.add(k);
  } else if (b.blocked.has(k)) {
    b.blocked.delete(k);
  } else {
    b.queens.add(k);
  }
}

function plural(k, noun) {
  return k + " " + noun + (k === 1 ? "" : "s");
}

// The board as the command line's input file (the numbers of a new weight board drawn first).
function boardText() {
  const b = boards[problem];
  if (problem === "weight") ensureWeights(b);
  const lines = [];
  for (let r = 0; r < b.rows; r++) {
    if (problem === "weight") {
      lines.push(b.weights.slice(r * b.cols, (r + 1) * b.cols).join(" "));
    } else {
      let line = "";
      for (let c = 0; c < b.cols; c++) {
        const k = key(r, c);
        if (problem === "repair") line += b.queens.has(k) ? "q" : ".";
        else if (problem === "complete") line += b.queens.has(k) ? "q" : b.blocked.has(k) ? "x" : ".";
        else line += b.marks.has(k) ? "X" : ".";
      }
      lines.push(line);
    }
  }
  return lines.join("\n") + "\n";
}

function syncText() {
  $("input").value = boardText();
}

// Reads an input file onto the board as far as it makes sense; the server judges it on Solve.
function loadText(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length === 0) return;
  const b = boards[problem];
  if (problem === "weight") {
    const rows = lines.map((l) => l.split(/\s+/).map(Number));
    b.rows = b.cols = rows.length;
    b.weights = rows.flat().slice(0, b.rows * b.cols).map((v) => (Number.isFinite(v) ? v : 0));
  } else if (problem === "complete") {
    b.rows = b.cols = lines.length;
    b.queens = new Set();
    b.blocked = new Set();
    lines.forEach((l, r) => [...l].forEach((ch, c) => {
      if (/[qQ]/.test(ch)) b.queens.add(key(r, c));
      if (/[xX]/.test(ch)) b.blocked.add(key(r, c));
    }));
  } else {
    b.rows = lines.length;
    b.cols = Math.max(...lines.map((l) => l.length));
    const set = problem === "repair" ? (b.queens = new Set()) : (b.marks = new Set());
    const want = problem === "repair" ? /[qQ]/ : /[xX]/;
    lines.forEach((l, r) => [...l].forEach((ch, c) => want.test(ch) && set.add(key(r, c))));
    if (problem === "repair") b.cols = b.rows;
  }
  $("size").value = b.rows === b.cols ? String(b.rows) : b.rows + "x" + b.cols;
  renderEditor();
}

function setSize() {
  const text = $("size").value.trim();
  const m = /^(\d+)\s*(?:[xX]\s*(\d+))?$/.exec(text);
  if (!m) return showError("the size must be N (or RxC for guard)");
  const rows = Number(m[1]);
  const cols = problem === "guard" && m[2] ? Number(m[2]) : rows;
  if (rows < 1 || cols < 1 || rows > 64 || cols > 64) return showError("sides from 1 to 64");
  const b = boards[problem];
  b.rows = rows;
  b.cols = cols;
  const inside = (k) => k.split(",").every((v) => Number(v) < rows);
  if (problem === "repair" || problem === "complete") b.queens = new Set([...b.queens].filter(inside));
  if (problem === "complete") b.blocked = new Set([...b.blocked].filter(inside));
  if (problem === "guard") b.marks = new Set([...b.marks].filter((k) => { const [r, c] = k.split(",").map(Number); return r < rows && c < cols; }));
  if (problem === "weight") b.weights = [];
  syncText();
  renderEditor();
}

function randomBoard() {
  const b = boards[problem];
  if (problem === "weight") b.weights = Array.from({ length: b.rows * b.cols }, () => 1 + rnd(99));
  if (problem === "repair") {
    b.queens = new Set();
    for (let c = 0; c < b.cols; c++) b.queens.add(key(rnd(b.rows), c));
    while (b.queens.size < b.rows) b.queens.add(key(rnd(b.rows), rnd(b.cols)));
  }
  if (problem === "guard") {
    b.marks = new Set();
    for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.cols; c++) if (Math.random() < 0.3) b.marks.add(key(r, c));
  }
  if (problem === "complete") {
    // A few queens that do not attack one another, and a few blocked squares elsewhere.
    b.queens = new Set();
    b.blocked = new Set();
    const placed = [];
    const want = Math.min(3, Math.floor(b.rows / 3));
    for (let tries = 0; placed.length < want && tries < 200; tries++) {
      const q = [rnd(b.rows), rnd(b.cols)];
      const attacks = placed.some(([r, c]) => r === q[0] || c === q[1] || Math.abs(r - q[0]) === Math.abs(c - q[1]));
      if (!attacks) placed.push(q);
    }
    placed.forEach(([r, c]) => b.queens.add(key(r, c)));
    for (let k = 0; k < b.rows; k++) {
      const s = key(rnd(b.rows), rnd(b.cols));
      if (!b.queens.has(s)) b.blocked.add(s);
    }
  }
  syncText();
  renderEditor();
}

function clearBoard() {
  const b = boards[problem];
  if (problem === "weight") b.weights = new Array(b.rows * b.cols).fill(0);
  if (problem === "repair") b.queens = new Set();
  if (problem === "guard") b.marks = new Set();
  if (problem === "complete") {
    b.queens = new Set();
    b.blocked = new Set();
  }
  syncText();
  renderEditor();
}

// ----- solving -----

function showError(message) {
  const s = $("status");
  s.textContent = message;
  s.className = "status error";
}

function showStatus(text, proven) {
  const s = $("status");
  s.textContent = text;
  s.className = "status" + (proven ? " proven" : "");
}

function describe(a) {
  const secs = " in " + a.seconds.toFixed(3) + " s";
  if (a.problem === "weight") {
    const least = a.sense === "min";
    const bound = least ? " (best found; lower bound " : " (best found; upper bound ";
    return (least ? "smallest sum " : "best sum ") + a.sum + (a.optimal ? " (proven optimal)" : bound + a.bound + ")") + secs;
  }
  if (a.problem === "repair") {
    const moves = a.moves + (a.moves === 1 ? " move" : " moves");
    const proof = a.optimal ? " (proven optimal)" : " (best found; at least " + a.lower_bound + " needed)";
    return moves + proof + ", relaxed count " + a.relaxed + secs;
  }
  if (a.problem === "complete" && a.completions !== undefined) {
    const partial = a.complete ? "" : " at least (stopped by the time limit)";
    const noun = String(a.completions) === "1" ? " completion" : " completions";
    return a.completions + noun + partial + secs;
  }
  if (a.problem === "complete") {
    const given = plural(a.given.length, "queen") + " given";
    if (a.completed) return "a completion: " + given + ", " + (a.queens.length - a.given.length) + " placed" + secs;
    if (a.proven) return "no completion (proven, " + plural(a.nodes, "node") + " searched)" + secs;
    return "no completion found (not proven: stopped after " + plural(a.nodes, "node") + ")" + secs;
  }
  const queens = a.guards + (a.guards === 1 ? " queen guards" : " queens guard");
  const proof = a.optimal ? " (proven optimal)" : " (best found; at least " + a.lower_bound + " needed)";
  return queens + " the marked squares" + proof + secs;
}

function setDownloads(jsonText, svgText, jsonLink, svgLink) {
  downloads.forEach((u) => URL.revokeObjectURL(u));
  downloads = [];
  const link = (a, text, type) => {
    const url = URL.createObjectURL(new Blob([text], { type }));
    downloads.push(url);
    a.href = url;
    a.hidden = false;
  };
  link(jsonLink, jsonText, "application/json");
  if (svgText === null) svgLink.hidden = true;
  else link(svgLink, svgText, "image/svg+xml");
}

async function solve(counting = false) {
  const text = $("input").value;
  const params = new URLSearchParams();
  if (counting) params.set("count", "1");
  const limit = $("time-limit").value.trim();
  if (limit !== "") params.set("time_limit", limit);
  if (problem === "guard" && $("independent").checked) params.set("independent", "1");
  if (problem === "weight" && $("minimize").checked) params.set("minimize", "1");
  const url = "/api/" + problem + "?" + params;
  stopPlaying();
  $("solve").disabled = $("count-completions").disabled = true;
  $("completed").hidden = true;
  showStatus(counting ? "counting..." : "solving...", false);
  try {
    const response = await fetch(url, { method: "POST", body: text, headers: { "Content-Type": "text/plain" } });
    const answerText = await response.text();
    let answer;
    try {
      answer = JSON.parse(answerText);
    } catch (e) {
      return showError("error: " + answerText);
    }
    if (!response.ok) return showError("error (" + response.status + "): " + answer.error);
    const proven = problem === "complete" ? (counting ? answer.complete : answer.completed || answer.proven) : answer.optimal;
    showStatus(describe(answer), proven);
    let svgText = null;
    if (counting) {
      $("picture").textContent = "";
    } else {
      params.set("format", "svg");
      const picture = await fetch("/api/" + problem + "?" + params, { method: "POST", body: text });
      svgText = await picture.text();
      $("picture").innerHTML = picture.ok ? svgText : "";
    }
    setDownloads(answerText, svgText, $("dl-json"), $("dl-svg"));
    $("downloads").hidden = false;
    if (problem === "repair") startReplay(answer);
    if (problem === "complete" && !counting && answer.completed) showCompletion(answer);
  } catch (e) {
    showError("the server did not answer: " + e);
  } finally {
    $("solve").disabled = $("count-completions").disabled = false;
  }
}

// The completion on a board: the given queens black, the placed ones blue, blocked squares grey.
function showCompletion(answer) {
  const b = boards.complete;
  const given = new Set(answer.given.map(([r, c]) => key(r, c)));
  const all = new Set(answer.queens.map(([r, c]) => key(r, c)));
  $("completed").hidden = false;
  drawBoard($("completed"), answer.n, answer.n, (sq, r, c) => {
    const k = key(r, c);
    if (b.blocked.has(k)) sq.classList.add("blocked");
    if (all.has(k)) {
      const queen = queenSvg();
      queen.classList.add(given.has(k) ? "given" : "placed");
      sq.appendChild(queen);
    }
  }, null, 320);
}

// ----- stepping through a repair plan -----

function startReplay(answer) {
  const b = boards.repair;
  const start = new Set(b.queens);
  const positions = [start];
  for (const mv of answer.plan) {
    const next = new Set(positions[positions.length - 1]);
    next.delete(key(mv.from[0], mv.from[1]));
    next.add(key(mv.to[0], mv.to[1]));
    positions.push(next);
  }
  replay = { n: answer.n, positions, plan: answer.plan, step: 0, timer: null };
  $("stepper").hidden = false;
  showStep();
}

function showStep() {
  if (!replay) return;
  const { n, positions, plan, step } = replay;
  const queens = positions[step];
  const last = step > 0 ? plan[step - 1] : null;
  drawBoard($("replay"), n, n, (sq, r, c) => {
    if (queens.has(key(r, c))) sq.appendChild(queenSvg());
    if (last && last.from[0] === r && last.from[1] === c) sq.classList.add("from");
    if (last && last.to[0] === r && last.to[1] === c) sq.classList.add("to");
  }, null, 320);
  $("move-counter").textContent = "move " + step + " of " + plan.length;
  if (last) {
    const from = squareName(last.from[0], last.from[1], n, n);
    const to = squareName(last.to[0], last.to[1], n, n);
    const chess = n <= 26 ? "Q" + from + "-" + to + "   " : "";
    $("move-text").textContent = chess + "[" + last.from.join(", ") + "] \u2192 [" + last.to.join(", ") + "]";
  } else {
    $("move-text").textContent = plan.length === 0 ? "already no two queens attack" : "the start position";
  }
  $("queen-count").textContent = queens.size + " queens on the board" + (step === plan.length ? ", none attacking another" : "");
  $("back").disabled = $("first").disabled = step === 0;
  $("forward").disabled = $("last").disabled = step === plan.length;
}

function go(step) {
  if (!replay) return;
  replay.step = Math.max(0, Math.min(replay.plan.length, step));
  showStep();
}

function stopPlaying() {
  if (replay && replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    $("play").textContent = "\u25B6 play";
  }
}

function play() {
  if (!replay) return;
  if (replay.timer) return stopPlaying();
  if (replay.step === replay.plan.length) go(0);
  $("play").textContent = "\u23F8 pause";
  replay.timer = setInterval(() => {
    if (replay.step >= replay.plan.length) return stopPlaying();
    go(replay.step + 1);
  }, 800);
}

// ----- counting and browsing solutions -----

const PAGE = 12;
let solutionPage = 0;

async function countSolutions() {
  const n = $("count-n").value.trim();
  $("count-result").className = "status";
  $("count-result").textContent = "counting...";
  const response = await fetch("/api/count/" + encodeURIComponent(n));
  const answer = await response.json();
  if (!response.ok) {
    $("count-result").className = "status error";
    $("count-result").textContent = "error (" + response.status + "): " + answer.error;
    return;
  }
  const partial = answer.complete ? "" : " (partial: stopped by the time limit; lower bounds)";
  $("count-result").textContent =
    answer.n + "-queens: " + answer.solutions + " solutions, " + answer.unique + " unique up to rotation and reflection" + partial;
  solutionPage = 0;
  await showSolutions();
}

async function showSolutions() {
  const n = $("count-n").value.trim();
  // One more than a page, to know whether a next page exists.
  const params = new URLSearchParams({ limit: PAGE + 1, skip: solutionPage * PAGE });
  if ($("unique").checked) params.set("unique", "1");
  const lines = await fetch("/api/solutions/" + encodeURIComponent(n) + "?" + params);
  const all = (await lines.text()).split("\n").filter((l) => l.trim() !== "");
  const more = all.length > PAGE;
  const text = all.slice(0, PAGE).map((l) => l + "\n").join("");
  if (!lines.ok) {
    // No placement exists for this N (2 and 3): the server says so, as the command line does.
    $("page-label").textContent = "no solutions";
    $("solutions-picture").textContent = "";
    $("next-page").disabled = true;
    $("prev-page").disabled = true;
    return;
  }
  const found = Math.min(all.length, PAGE);
  if (found === 0) {
    $("page-label").textContent = solutionPage === 0 ? "no solutions" : "no more solutions";
    $("solutions-picture").textContent = "";
    $("next-page").disabled = true;
    $("prev-page").disabled = solutionPage === 0;
    return;
  }
  params.set("format", "svg");
  params.set("limit", PAGE);
  const picture = await fetch("/api/solutions/" + encodeURIComponent(n) + "?" + params);
  const svgText = await picture.text();
  $("solutions-picture").innerHTML = svgText;
  const first = solutionPage * PAGE + 1;
  $("page-label").textContent = "solutions " + first + " to " + (first + found - 1);
  $("prev-page").disabled = solutionPage === 0;
  $("next-page").disabled = !more;
  setDownloads(text, svgText, $("dl-solutions"), $("dl-solutions-svg"));
}

// ----- tabs and wiring -----

function choose(p) {
  stopPlaying();
  problem = p;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.problem === p);
  const counting = p === "count";
  $("solver").hidden = counting;
  $("result").hidden = counting;
  $("counter").hidden = !counting;
  if (counting) return;
  $("explain").textContent = EXPLAIN[p];
  $("independent-box").hidden = p !== "guard";
  $("count-completions").hidden = p !== "complete";
  $("completed").hidden = true;
  $("minimize-box").hidden = p !== "weight";
  const b = boards[p];
  $("size").value = b.rows === b.cols ? String(b.rows) : b.rows + "x" + b.cols;
  $("stepper").hidden = true;
  $("picture").textContent = "";
  $("downloads").hidden = true;
  showStatus("Set up a board and press Solve.", false);
  syncText();
  renderEditor();
}

function example() {
  // The README's board: the judges' relaxed count is 3, the true minimum 4.
  loadText("........\n.....q..\n.q......\n........\n....q...\nq.......\n......qq\n...q...q\n");
}

for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => choose(b.dataset.problem));
$("resize").addEventListener("click", setSize);
$("size").addEventListener("keydown", (e) => e.key === "Enter" && setSize());
$("clear").addEventListener("click", clearBoard);
$("random").addEventListener("click", randomBoard);
$("load").addEventListener("click", () => loadText($("input").value));
$("solve").addEventListener("click", () => solve(false));
$("count-completions").addEventListener("click", () => solve(true));
$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(replay.step - 1));
$("forward").addEventListener("click", () => go(replay.step + 1));
$("last").addEventListener("click", () => go(replay.plan.length));
$("play").addEventListener("click", play);
$("count").addEventListener("click", countSolutions);
$("count-n").addEventListener("keydown", (e) => e.key === "Enter" && countSolutions());
$("unique").addEventListener("change", () => { solutionPage = 0; showSolutions(); });
$("prev-page").addEventListener("click", () => { solutionPage = Math.max(0, solutionPage - 1); showSolutions(); });
$("next-page").addEventListener("click", () => { solutionPage += 1; showSolutions(); });

// A narrower or wider window redraws the boards to fit.
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (problem !== "count") renderEditor();
    showStep();
  }, 100);
});

problem = "repair";
example();
for (let r = 0; r < 8; r++) boards.guard.marks.add(key(r, r)), boards.guard.marks.add(key(r, 7 - r));
// Nauck's 1850 puzzle: two queens given on 8 x 8, two completions.
boards.complete.queens = new Set([key(3, 3), key(4, 1)]);
choose("repair");
