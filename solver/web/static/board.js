// The analysis board's page. It presents what the server computes (solver.web): the server
// reads deals and records, checks every card, solves and scores; this file never does.
// Every text that comes from a record or the user is put in with textContent, never as HTML.
"use strict";
(function () {
  const WORDS = window.KJ_WORDS;
  const SEATS = ["N", "E", "S", "W"];
  const SUITS = ["S", "H", "D", "C"];                 // the order hands are shown in
  const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7"];
  const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const NL_RANK = { T: "10", J: "B", Q: "V", K: "H" };
  const LANG_KEY = "klaverjas-board-lang";
  const SD_KEY = "klaverjas-board-single-dummy";

  let lang = "en";
  try { lang = localStorage.getItem(LANG_KEY) || "en"; } catch (e) { lang = "en"; }
  if (!WORDS[lang]) lang = "en";

  // -- little helpers ------------------------------------------------------------------------

  const $ = (id) => document.getElementById(id);

  function t(key, ...args) {
    const words = WORDS[lang] && key in WORDS[lang] ? WORDS[lang] : WORDS.en;
    let text = key in words ? words[key] : key;
    args.forEach((a, i) => { text = text.split("{" + i + "}").join(String(a)); });
    return text;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  const seatName = (s) => t("seat_" + s);
  const teamName = (team) => team.split("").map(seatName).join("");
  const suitName = (s) => t("suit_" + s);
  const isRed = (c) => c[0] === "H" || c[0] === "D";

  function rankText(r) { return lang === "nl" ? (NL_RANK[r] || r) : (r === "T" ? "10" : r); }
  function cardText(c) { return SYMBOL[c[0]] + rankText(c[1]); }
  function cardOrder(a, b) {
    return SUITS.indexOf(a[0]) - SUITS.indexOf(b[0]) || RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]);
  }
  function signed(v) { return (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v); }
  function fixed(v, digits) {
    if (v === null || v === undefined || !isFinite(v)) return "–";
    const text = Math.abs(v).toFixed(digits);
    return (v < 0 && Number(text) !== 0 ? "−" : "") + text;
  }
  function percent(v) { return Math.round(100 * v) + "%"; }
  function cardSpan(c, extra) {
    return el("span", { class: "c " + (isRed(c) ? "red" : "black") + (extra ? " " + extra : ""),
                        "data-card": c, text: cardText(c) });
  }

  class ApiError extends Error {}

  async function call(path, body, signal) {
    const options = { method: body === undefined ? "GET" : "POST", signal };
    if (body !== undefined) {
      options.headers = { "content-type": "application/json" };
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    if (!response.ok) {
      let message = response.statusText;
      try { message = (await response.json()).error || message; } catch (e) { /* not JSON */ }
      throw new ApiError(message);
    }
    return response;
  }
  async function callJson(path, body) { return (await call(path, body)).json(); }

  function showError(err) {
    if (err && err.name === "AbortError") return;
    const box = $("message");
    box.textContent = err && err.message ? err.message : String(err);
    box.hidden = false;
  }
  function clearError() { $("message").hidden = true; $("message").textContent = ""; }

  // -- the state: the round, the real line, the explored line and where the board stands -----

  const S = {
    meta: null,          // /api/rules
    deal: null,          // the deal being set up (PBN)
    round: null,         // {deal, trump, leader, playing, rules, bidder, dummy}
    dealer: null,
    players: {},
    main: [],            // the real line of a record ([] when none)
    line: [],            // the line explored
    at: 0,               // cards of `line` on the board
    perfectFrom: null,   // where a perfect continuation starts in `line`
    board: null,         // /api/position of the board
    view: null,          // the last single-dummy batch
    tab: "setup",
  };

  function positionBody(at) {
    const r = S.round;
    return { deal: r.deal, trump: r.trump, leader: r.leader, playing: r.playing, rules: r.rules,
             bidder: r.bidder, dummy: r.dummy, played: S.line.slice(0, at === undefined ? S.at : at) };
  }

  function parted() {
    // The first card where the line leaves the real line (the line's length when it never does).
    if (!S.main.length) return S.line.length;
    let i = 0;
    while (i < S.line.length && i < S.main.length && S.line[i] === S.main[i]) i++;
    return i;
  }

  // -- the URL holds the round, the lines and the position ------------------------------------

  function saveUrl() {
    if (!S.round) return;
    const q = new URLSearchParams();
    const r = S.round;
    q.set("deal", r.deal);
    for (const k of ["trump", "leader", "playing", "bidder", "dummy"]) if (r[k]) q.set(k, r[k]);
    if (S.dealer) q.set("dealer", S.dealer);
    q.set("rules", typeof r.rules === "string" ? r.rules : JSON.stringify(r.rules));
    if (S.main.length) q.set("main", S.main.join(" "));
    if (S.line.length) q.set("line", S.line.join(" "));
    q.set("at", String(S.at));
    if (Object.keys(S.players).length) q.set("players", JSON.stringify(S.players));
    history.replaceState(null, "", "?" + q.toString() + "#" + S.tab);
  }

  function loadUrl() {
    const q = new URLSearchParams(location.search);
    if (!q.get("deal") || !q.get("leader")) return false;
    let rules = q.get("rules") || "amsterdam";
    if (rules.startsWith("{")) {
      try { rules = JSON.parse(rules); } catch (e) { rules = "amsterdam"; }
    }
    let players = {};
    try { players = JSON.parse(q.get("players") || "{}") || {}; } catch (e) { players = {}; }
    const cards = (name) => (q.get(name) || "").split(/[\s,]+/).filter(Boolean);
    S.round = { deal: q.get("deal"), trump: q.get("trump"), leader: q.get("leader"),
                playing: q.get("playing"), rules, bidder: q.get("bidder"), dummy: q.get("dummy") };
    S.deal = S.round.deal;
    S.dealer = q.get("dealer");
    S.players = typeof players === "object" ? players : {};
    S.main = cards("main");
    S.line = q.has("line") ? cards("line") : S.main.slice();
    const at = parseInt(q.get("at") || "0", 10);
    S.at = Math.max(0, Math.min(isNaN(at) ? 0 : at, S.line.length));
    return true;
  }

  // -- tabs and words -----------------------------------------------------------------------

  function setTab(tab) {
    S.tab = tab;
    for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== tab;
    for (const button of document.querySelectorAll("[data-tab]")) {
      button.setAttribute("aria-selected", String(button.dataset.tab === tab));
    }
    if (tab === "bid") showBidTab();
    if (tab !== "board") stopView();
    if (tab === "board" && S.board) startView();
    saveUrl();
  }

  function applyWords() {
    document.documentElement.lang = lang;
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
    $("lang").value = lang;
    fillRoundSelects();
    buildRulesForm();
    renderBuilder();
    renderDealShown();
    fillBidSelects();
    if (S.board) renderBoard();
    if (S.view) renderCardsTable();
    if (S.why) renderWhy(S.why);
    if (S.bid) renderBid(S.bid);
    if (S.table) renderTable(S.table);
  }

  // -- 1. getting a deal in -------------------------------------------------------------------

  function options(select, items, value) {
    clear(select);
    for (const [v, label] of items) select.append(el("option", { value: v, text: label }));
    if (value !== undefined && value !== null) select.value = value;
  }

  function fillRoundSelects() {
    const keep = (id) => $(id).value;
    const seatItems = SEATS.map((s) => [s, seatName(s)]);
    const ledigNoTrump = currentRules().contract === "ledig" && currentRules().ledig_trump === "none";
    options($("f-trump"), ledigNoTrump ? [["", t("no_trump")]] :
      SUITS.map((s) => [s, SYMBOL[s] + " " + suitName(s)]), ledigNoTrump ? "" : (keep("f-trump") || "S"));
    options($("f-dealer"), [["", "—"]].concat(seatItems), keep("f-dealer"));
    options($("f-leader"), seatItems, keep("f-leader") || "N");
    options($("f-playing"), [["NS", teamName("NS")], ["EW", teamName("EW")]], keep("f-playing") || "NS");
    options($("f-bidder"), seatItems, keep("f-bidder") || "N");
    options($("f-dummy"), seatItems, keep("f-dummy") || "N");
    const presets = Object.keys(S.meta ? S.meta.presets : { amsterdam: 1, rotterdam: 1 });
    options($("f-preset"), presets.map((p) => [p, t("preset_" + p)]).concat([["custom", t("preset_custom")]]),
      keep("f-preset") || "amsterdam");
  }

  async function readDeal(body) {
    clearError();
    try {
      const answer = await callJson("/api/deal", body);
      S.deal = answer.deal;
      renderDealShown();
      $("deal-shown").scrollIntoView({ block: "nearest" });     // the round's settings are next
    } catch (e) { showError(e); }
  }

  function renderDealShown() {
    const box = clear($("deal-shown"));
    if (!S.deal) { box.textContent = t("no_deal_yet"); return; }
    const hands = handsOf(S.deal);
    for (const seat of SEATS) {
      const line = el("span", { class: "deal-hand" }, el("b", { text: seatName(seat) + " " }));
      for (const suit of SUITS) {
        const ranks = hands[seat].filter((c) => c[0] === suit).map((c) => rankText(c[1])).join(" ");
        line.append(el("span", { class: "suit " + (suit === "H" || suit === "D" ? "red" : "black"),
                                 text: SYMBOL[suit] + (ranks || "–") + " " }));
      }
      box.append(line);
    }
  }

  function handsOf(pbn) {
    // Only to show the deal the server gave back in its own PBN: N: first, S.H.D.C.
    const hands = {};
    const parts = pbn.slice(2).split(" ");
    const first = SEATS.indexOf(pbn[0]);
    parts.forEach((part, i) => {
      const seat = SEATS[(first + i) % 4];
      hands[seat] = [];
      part.split(".").forEach((ranks, j) => {
        for (const r of ranks.replace("-", "")) hands[seat].push(SUITS[j] + r);
      });
    });
    return hands;
  }

  async function readRecord(text) {
    clearError();
    try {
      const answer = await callJson("/api/record", { text });
      const box = clear($("rounds"));
      if (answer.rounds.length === 1) { openRound(answer.rounds[0]); return; }
      box.append(el("p", { text: t("rounds_in_file", answer.rounds.length) }));
      answer.rounds.forEach((round, i) => {
        const what = round.bidder ? t("ledig_by", seatName(round.bidder))
          : t("plays", teamName(round.playing), round.trump ? SYMBOL[round.trump] : "");
        box.append(el("button", { type: "button", class: "round-button", "data-round": i,
                                  onclick: () => openRound(round),
                                  text: t("round_n", i + 1) + ": " + what + " (" + round.played.length + ")" }));
      });
    } catch (e) { showError(e); }
  }

  function openRound(round) {
    S.round = { deal: round.deal, trump: round.trump || null, leader: round.leader,
                playing: round.playing, rules: round.rules, bidder: round.bidder || null,
                dummy: round.dummy || null };
    S.deal = round.deal;
    S.dealer = round.dealer || null;
    S.players = round.players || {};
    S.main = round.played.slice();
    S.line = round.played.slice();
    S.at = 0;
    S.perfectFrom = null;
    fillRoundForm();
    startBoard();
  }

  // building a deal by clicking
  const builder = { seat: "N", owner: {} };

  function renderBuilder() {
    const seats = clear($("build-seats"));
    const counts = { N: 0, E: 0, S: 0, W: 0 };
    for (const c of Object.keys(builder.owner)) counts[builder.owner[c]]++;
    for (const seat of SEATS) {
      seats.append(el("button", { type: "button", class: "seat-button" + (builder.seat === seat ? " on" : "") +
                                  (counts[seat] === 8 ? " full" : ""), "data-build-seat": seat,
                                  "aria-pressed": String(builder.seat === seat),
                                  onclick: () => { builder.seat = seat; renderBuilder(); },
                                  text: seatName(seat) + " " + counts[seat] + "/8" }));
    }
    const grid = clear($("build-cards"));
    for (const suit of SUITS) {
      const row = el("div", { class: "build-row" });
      for (const rank of RANKS) {
        const card = suit + rank;
        const owner = builder.owner[card];
        row.append(el("button", { type: "button", class: "card " + (isRed(card) ? "red" : "black") +
                                  (owner ? " placed" : ""), "data-build-card": card,
                                  onclick: () => buildClick(card) },
                      el("span", { class: "face", text: cardText(card) }),
                      el("span", { class: "v", text: owner ? seatName(owner) : "" })));
      }
      grid.append(row);
    }
    const placed = Object.keys(builder.owner).length;
    const status = $("build-status");
    status.textContent = placed === 32 ? t("build_done") : t("build_left", 32 - placed, seatName(builder.seat));
    status.className = "status" + (placed === 32 ? " good" : "");
    $("build-go").disabled = placed !== 32;
  }

  function buildClick(card) {
    clearError();
    if (builder.owner[card]) { delete builder.owner[card]; renderBuilder(); return; }
    const count = (seat) => Object.values(builder.owner).filter((s) => s === seat).length;
    if (count(builder.seat) >= 8) {
      showError(new Error(t("build_full", seatName(builder.seat))));
      return;
    }
    builder.owner[card] = builder.seat;
    if (count(builder.seat) === 8) {
      const next = SEATS.map((_, i) => SEATS[(SEATS.indexOf(builder.seat) + i) % 4]).find((s) => count(s) < 8);
      if (next) builder.seat = next;
    }
    renderBuilder();
  }

  function buildRest() {
    const counts = { N: 0, E: 0, S: 0, W: 0 };
    for (const s of Object.values(builder.owner)) counts[s]++;
    const short = SEATS.filter((s) => counts[s] < 8);
    if (short.length !== 1) { showError(new Error(t("build_rest_needs"))); return; }
    for (const suit of SUITS) for (const rank of RANKS) {
      if (!builder.owner[suit + rank]) builder.owner[suit + rank] = short[0];
    }
    renderBuilder();
  }

  function builtPbn() {
    // The hands as the PBN text the server reads (Deal.from_pbn checks it).
    return "N:" + SEATS.map((seat) => SUITS.map((suit) => RANKS.filter(
      (r) => builder.owner[suit + r] === seat).join("") || "-").join(".")).join(" ");
  }

  // the rules: a preset, or every option in a form made from the rules' own schema
  function currentRules() {
    const form = readRulesForm();
    return form || (S.meta ? S.meta.defaults : { contract: "trump", players: 4, ledig_trump: "none" });
  }

  function buildRulesForm(values) {
    // One field for each option of the rules' own schema, filled with `values`.
    if (!S.meta) return;
    const keep = values || readRulesForm() || S.meta.defaults;
    const box = clear($("rules-form"));
    for (const [name, schema] of Object.entries(S.meta.options)) {
      const label = el("label", { class: "rule" }, el("span", { text: t("rule_" + name) }));
      let input;
      if (schema.enum) {
        input = el("select", { "data-rule": name });
        for (const v of schema.enum) {
          if (typeof v === "number" && schema.enum.includes(String(v))) continue;
          input.append(el("option", { value: String(v), text: t("value_" + v) }));
        }
        input.value = String(keep[name]);
      } else if (schema.type === "integer") {
        input = el("input", { type: "number", "data-rule": name, min: schema.minimum, max: schema.maximum,
                              value: keep[name] });
      } else if (schema.type === "boolean") {
        input = el("input", { type: "checkbox", "data-rule": name });
        input.checked = Boolean(keep[name]);
      } else if (name === "four_of_a_kind") {
        input = el("span", { class: "ranks", "data-rule": name });
        for (const r of ["T", "J", "Q", "K", "A", "9", "8", "7"]) {
          const value = (keep[name] || {})[r] || 0;
          input.append(el("label", { class: "mini" }, el("span", { text: rankText(r) }),
                          el("input", { type: "number", min: 0, max: 1000, "data-rank": r, value })));
        }
      } else if (name === "double_suits") {
        input = el("span", { class: "suits", "data-rule": name });
        for (const s of SUITS) {
          const box2 = el("input", { type: "checkbox", "data-suit": s });
          box2.checked = (keep[name] || []).includes(s);
          input.append(el("label", { class: "mini" }, box2, el("span", { text: SYMBOL[s] })));
        }
      } else continue;
      label.append(input);
      box.append(label);
    }
  }

  function readRulesForm() {
    const box = $("rules-form");
    if (!S.meta || !box.firstChild) return null;
    const rules = {};
    for (const node of box.querySelectorAll("[data-rule]")) {
      const name = node.dataset.rule;
      const schema = S.meta.options[name];
      if (schema.enum) {
        rules[name] = schema.type === "integer" ? Number(node.value) : node.value;
      } else if (schema.type === "integer") rules[name] = node.value === "" ? node.value : Number(node.value);
      else if (schema.type === "boolean") rules[name] = node.checked;
      else if (name === "four_of_a_kind") {
        rules[name] = {};
        for (const input of node.querySelectorAll("[data-rank]")) {
          const v = input.value === "" ? 0 : Number(input.value);
          if (v) rules[name][input.dataset.rank] = v;
        }
      } else if (name === "double_suits") {
        rules[name] = [...node.querySelectorAll("[data-suit]")].filter((i) => i.checked).map((i) => i.dataset.suit);
      }
    }
    return rules;
  }

  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).sort().join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map((k) => k + ":" + canonical(value[k])).join(",") + "}";
    }
    return JSON.stringify(value);
  }

  function rulesForRequest() {
    // A preset's name when the form is that preset; else the options that differ from the defaults.
    const rules = readRulesForm();
    if (!rules) return "amsterdam";
    for (const [name, preset] of Object.entries(S.meta.presets)) {
      if (canonical(preset) === canonical(rules)) return name;
    }
    const out = {};
    for (const [k, v] of Object.entries(rules)) {
      if (canonical(v) !== canonical(S.meta.defaults[k])) out[k] = v;
    }
    return out;
  }

  function rulesChanged() {
    const rules = rulesForRequest();
    $("f-preset").value = typeof rules === "string" ? rules : "custom";
    showRoundFields();
  }

  function setRulesForm(rules) {
    if (!S.meta) return;
    const full = typeof rules === "string" ? (S.meta.presets[rules.trim().toLowerCase()] || S.meta.defaults)
      : Object.assign({}, S.meta.defaults, rules);
    buildRulesForm(full);
    rulesChanged();
  }

  function showRoundFields() {
    const rules = currentRules();
    const ledig = rules.contract === "ledig";
    $("f-bidder-box").hidden = !ledig;
    $("f-dummy-box").hidden = Number(rules.players) !== 3;
    $("f-playing").disabled = ledig;
    const ledigNoTrump = ledig && rules.ledig_trump === "none";
    const wantsNone = $("f-trump").querySelector('option[value=""]') !== null;
    if (ledigNoTrump !== wantsNone) fillRoundSelects();
  }

  function readRoundForm() {
    const rules = currentRules();
    const ledig = rules.contract === "ledig";
    return { deal: S.deal, trump: $("f-trump").value || null, leader: $("f-leader").value,
             playing: ledig ? null : $("f-playing").value, rules: rulesForRequest(),
             bidder: ledig ? $("f-bidder").value : null,
             dummy: Number(rules.players) === 3 ? $("f-dummy").value : null };
  }

  function fillRoundForm() {
    const r = S.round;
    setRulesForm(r.rules);
    fillRoundSelects();
    if (r.trump) $("f-trump").value = r.trump;
    $("f-leader").value = r.leader;
    if (r.playing) $("f-playing").value = r.playing;
    if (r.bidder) $("f-bidder").value = r.bidder;
    if (r.dummy) $("f-dummy").value = r.dummy;
    $("f-dealer").value = S.dealer || "";
    renderDealShown();
  }

  function startFromForm() {
    clearError();
    if (!S.deal) { showError(new Error(t("no_deal_yet"))); return; }
    S.round = readRoundForm();
    S.dealer = $("f-dealer").value || null;
    S.players = {};
    S.main = [];
    S.line = [];
    S.at = 0;
    S.perfectFrom = null;
    startBoard();
  }

  // -- 2. the board ---------------------------------------------------------------------------

  let asked = 0;          // the number of the last position asked for: older answers are dropped

  async function startBoard() {
    S.board = null;
    S.table = null;
    S.bid = null;
    clear($("dd-table"));
    clear($("bid-tables"));
    $("bid-verdict").textContent = "";
    setTab("board");
    await show();
  }

  let answered = 0;       // the number of the last position shown

  async function show() {
    const mine = ++asked;
    stopView();
    hideWhy();
    const body = positionBody(S.line.length);
    body.at = S.at;
    let board;
    try {
      board = await callJson("/api/position", body);
    } catch (e) {
      if (mine === asked) { answered = mine; showError(e); }
      return;
    }
    if (mine !== asked) return;
    answered = mine;
    clearError();
    S.board = board;
    S.view = null;
    renderBoard();
    saveUrl();
    if (S.tab === "board") startView();
  }

  function go(at) {
    at = Math.max(0, Math.min(at, S.line.length));
    if (at === S.at && S.board) return;
    S.at = at;
    show();
  }

  function play(card) {
    // A card of the board on screen, while the next position is on its way, would be played
    // in the wrong position: wait for it.
    if (answered !== asked) return;
    if (S.line[S.at] === card) { go(S.at + 1); return; }
    S.line = S.line.slice(0, S.at).concat([card]);
    S.perfectFrom = null;
    S.at += 1;
    show();
  }

  async function perfectPlay() {
    clearError();
    try {
      const answer = await callJson("/api/line", positionBody());
      S.line = S.line.slice(0, S.at).concat(answer.line);
      S.perfectFrom = S.at;
      await show();
    } catch (e) { showError(e); }
  }

  function toMain() {
    const part = parted();
    S.line = S.main.slice();
    S.perfectFrom = null;
    S.at = Math.min(S.at, part);
    S.board = null;
    show();
  }

  function renderBoard() {
    const b = S.board;
    renderRoundLine();
    for (const box of document.querySelectorAll(".hand-box")) renderHand(box, box.dataset.seat);
    renderTrick();
    renderMoves();
    renderChart();
    renderTallies();
    renderCardsTable();
    $("counter").textContent = t("counter", S.at, S.line.length);
    $("prev").disabled = S.at === 0;
    $("first").disabled = S.at === 0;
    $("next").disabled = S.at >= S.line.length;
    $("last").disabled = S.at >= S.line.length;
    $("perfect").disabled = b.over;
    const onMain = S.line.length === S.main.length && parted() === S.main.length;
    $("to-main").hidden = !S.main.length || onMain;
  }

  function renderRoundLine() {
    const r = S.board.round;
    const box = clear($("round-line"));
    const what = r.bidder ? t("ledig_by", seatName(r.bidder)) +
      (r.trump ? " (" + SYMBOL[r.trump] + ")" : " (" + t("no_trump") + ")")
      : t("plays", teamName(r.playing), SYMBOL[r.trump] + " " + suitName(r.trump));
    box.append(el("b", { text: what }), ", " + t("leads", seatName(r.leader)));
    if (S.dealer) box.append(", " + t("dealt_by", seatName(S.dealer)));
    if (r.dummy) box.append(", " + t("dummy_is", seatName(r.dummy)));
    if (S.main.length) {
      const variation = parted() < S.at;
      box.append(" · ", el("span", { class: "line-kind " + (variation ? "variation" : "main"),
                                     id: "line-kind", text: variation ? t("in_variation") : t("on_main") }));
    }
  }

  function renderHand(box, seat) {
    const b = S.board;
    clear(box);
    box.classList.toggle("to-move", b.to_move === seat);
    const label = el("div", { class: "seat-label" }, el("b", { text: seatName(seat) }));
    const name = S.players[seat];
    if (name) label.append(" ", el("span", { class: "player", text: String(name) }));
    if (b.round.dummy === seat) label.append(" ", el("span", { class: "tag", text: t("dummy_tag") }));
    if (b.round.bidder === seat) label.append(" ", el("span", { class: "tag", text: t("bidder_tag") }));
    if (b.to_move === seat) label.append(" ", el("span", { class: "tag move", text: t("to_play") }));
    box.append(label);
    const cards = el("div", { class: "hand" });
    const hand = b.hands[seat].slice().sort(cardOrder);
    for (const c of hand) {
      const legal = b.to_move === seat && c in b.values;
      const best = legal && b.best.includes(c);
      const button = el("button", { type: "button", class: "card " + (isRed(c) ? "red" : "black") +
                                    (legal ? " legal" : "") + (best ? " best" : ""),
                                    "data-card": c, disabled: !legal,
                                    "aria-label": cardText(c) + (legal ? " " + signed(b.values[c]) : ""),
                                    onclick: () => play(c) },
                           el("span", { class: "face", text: cardText(c) }));
      button.append(el("span", { class: "v", "data-value": legal ? b.values[c] : "",
                                 text: legal ? signed(b.values[c]) : "" }));
      cards.append(button);
    }
    box.append(cards);
  }

  function renderTrick() {
    const b = S.board;
    const box = clear($("table"));
    let shown = b.table;
    let note = t("trick_n", b.trick_number);
    let faded = false;
    if (!shown.length && b.tricks.length) {
      const last = b.tricks[b.tricks.length - 1];
      shown = last.cards;
      faded = true;
      note = t("trick_won", last.number, seatName(last.winner), last.points) +
        (last.roem ? " · " + t("roem_n", last.roem) : "") + (last.stuk ? " · " + t("stuk") : "");
    }
    const spots = el("div", { class: "trick" + (faded ? " done" : "") });
    for (const seat of SEATS) {
      const played = shown.find((p) => p.seat === seat);
      spots.append(el("div", { class: "spot " + seat },
                      played ? cardSpan(played.card, "on-table") : ""));
    }
    box.append(el("div", { class: "trick-note", text: note }), spots);
    if (b.over) box.append(el("div", { class: "trick-note", text: t("round_over") }));
  }

  function renderMoves() {
    const b = S.board;
    const list = clear($("moves"));
    const part = parted();
    const legend = clear($("moves-legend"));
    legend.append(el("span", { class: "mv main", text: t("legend_main") }), " ",
                  el("span", { class: "mv variation", text: t("legend_variation") }), " ",
                  el("span", { class: "mv perfect", text: t("legend_perfect") }));
    if (!b) return;
    const info = b.line;
    let item = null;
    info.forEach((m, i) => {
      if (i % 4 === 0) {
        item = el("li", { class: "trick-row" }, el("span", { class: "tn", text: String(m.trick) }));
        list.append(item);
      }
      let kind = S.main.length ? (i < part ? "main" : "variation") : "main";
      if (S.perfectFrom !== null && i >= S.perfectFrom) kind += " perfect";
      const button = el("button", { type: "button", class: "mv " + kind + (i === S.at - 1 ? " current" : "") +
                                    (i >= S.at ? " ahead" : ""), "data-move": i,
                                    onclick: () => go(i + 1) },
                        el("span", { class: "ms", text: seatName(m.seat) }), cardSpan(m.card));
      item.append(button);
      if (i % 4 === 3 && m.winner) item.append(el("span", { class: "won", text: "→ " + seatName(m.winner) }));
    });
    for (const trick of b.tricks) {
      const row = list.children[trick.number - 1];
      if (!row) continue;
      if (trick.roem) row.append(el("span", { class: "badge", text: t("roem_n", trick.roem) }));
      if (trick.stuk) row.append(el("span", { class: "badge", text: t("stuk") }));
    }
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }

  function renderChart() {
    const b = S.board;
    const box = clear($("chart"));
    const values = b.chart;
    const width = 320, height = 140, pad = 22;
    const low = Math.min(0, ...values), high = Math.max(0, ...values);
    const span = Math.max(high - low, 1);
    const x = (i) => pad + (width - 2 * pad) * i / 32;
    const y = (v) => 8 + (height - 24) * (high - v) / span;
    const chart = svg("svg", { viewBox: "0 0 " + width + " " + height, "data-chart": "", role: "img",
                               "aria-label": t("chart_label", teamName(b.round.playing)) });
    for (let trick = 0; trick <= 8; trick++) {
      chart.append(svg("line", { x1: x(4 * trick), x2: x(4 * trick), y1: 6, y2: height - 16, class: "grid" }));
    }
    chart.append(svg("line", { x1: x(0), x2: x(32), y1: y(0), y2: y(0), class: "zero" }));
    const part = S.main.length ? parted() : values.length;
    const points = (from, to) => values.slice(from, to).map((v, i) => x(from + i) + "," + y(v)).join(" ");
    chart.append(svg("polyline", { points: points(0, Math.min(part + 1, values.length)), class: "value main" }));
    if (part + 1 < values.length) chart.append(svg("polyline", { points: points(part, values.length), class: "value variation" }));
    const here = svg("circle", { cx: x(S.at), cy: y(values[S.at]), r: 4, class: "here" });
    chart.append(here);
    const label = svg("text", { x: 2, y: 12, class: "axis" });
    label.textContent = signed(high);
    const label2 = svg("text", { x: 2, y: height - 16, class: "axis" });
    label2.textContent = signed(low);
    chart.append(label, label2);
    box.append(chart, el("p", { class: "hint", text: t("chart_label", teamName(b.round.playing)) +
                                 " · " + t("value_here", signed(values[S.at])) }));
  }

  function renderTallies() {
    const b = S.board;
    const box = clear($("tallies"));
    const ledig = b.unit === "tricks";
    const head = ledig ? ["team", "tricks"] : ["team", "points", "roem", "pit", "total", "tricks"];
    const table = el("table", { class: "tally" });
    table.append(el("tr", {}, ...head.map((h) => el("th", { text: t("col_" + h) }))));
    for (const team of ["NS", "EW"]) {
      const tally = b.tallies[team];
      const row = el("tr", { "data-team": team }, el("th", { text: teamName(team) +
        (team === b.round.playing ? " ★" : "") }));
      for (const h of head.slice(1)) row.append(el("td", { class: "num", text: String(tally[h]) }));
      table.append(row);
    }
    box.append(table);
    const result = clear($("result"));
    if (b.result) {
      const scores = b.result.scores;
      const words = ledig ? (b.result.made ? t("ledig_made") : t("ledig_down", b.bidder_tricks))
        : (b.result.made ? t("made", teamName(b.round.playing)) : t("nat", teamName(b.round.playing)));
      const pit = ["NS", "EW"].filter((team) => b.tallies[team].pit);
      result.append(el("b", { text: t("score") + " " }),
                    el("span", { class: "num", text: teamName("NS") + " " + scores.NS }), " · ",
                    el("span", { class: "num", text: teamName("EW") + " " + scores.EW }), " — " + words +
                    (pit.length ? " · " + t("pit_for", teamName(pit[0])) : ""));
    } else if (ledig && b.bidder_tricks) {
      result.textContent = t("ledig_down", b.bidder_tricks);
    }
  }

  // -- 3. the cards of the player to move: the true deal, and what the player could know ------

  let viewControl = null;

  function stopView() {
    if (viewControl) { viewControl.abort(); viewControl = null; }
  }

  async function startView() {
    stopView();
    const b = S.board;
    S.view = null;
    $("sd-progress").value = 0;
    $("sd-status").textContent = "";
    if (!b || b.over || !$("sd-on").checked) { renderCardsTable(); return; }
    const worlds = Math.max(1, Math.min(512, parseInt($("sd-worlds").value, 10) || 64));
    $("sd-progress").max = worlds;
    $("sd-status").textContent = t("sd_working", 0, worlds);
    const control = new AbortController();
    viewControl = control;
    const body = positionBody();
    Object.assign(body, { worlds, batch: 8, seconds: 60, seed: 0 });
    try {
      const response = await call("/api/view", body, control.signal);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = text.indexOf("\n")) >= 0) {
          const line = JSON.parse(text.slice(0, cut));
          text = text.slice(cut + 1);
          if (control !== viewControl) return;
          if (line.error) throw new ApiError(line.error);
          S.view = line;
          $("sd-progress").value = line.worlds;
          $("sd-status").textContent = line.last ? t("sd_done", line.worlds)
            : t("sd_working", line.worlds, line.of);
          renderCardsTable();
        }
      }
    } catch (e) {
      if (control === viewControl) showError(e);
    } finally {
      if (control === viewControl) viewControl = null;
    }
  }

  function renderCardsTable() {
    const b = S.board;
    const table = clear($("cards-table"));
    if (!b || b.over) return;
    const view = S.view;
    const cards = Object.keys(b.values).sort((x, y) => b.values[y] - b.values[x] || cardOrder(x, y));
    const top = Math.max(...cards.map((c) => b.values[c]));
    const unit = b.unit === "tricks" ? t("tricks_unit") : t("points_unit");
    table.append(el("tr", { class: "groups" }, el("th", {}),
      el("th", { colspan: 3, class: "dd", text: t("true_deal") }),
      el("th", { colspan: 5, class: "sd", id: "sd-head",
                 text: t("could_know", seatName(b.to_move)) + (view ? " · " + t("n_worlds", view.worlds) : "") })));
    table.append(el("tr", {}, ...[["card", ""], ["dd_value", "dd"], ["dd_loss", "dd"], ["why", "dd"],
      ["sd_mean", "sd"], ["sd_interval", "sd"], ["sd_best", "sd"], ["sd_big_loss", "sd"], ["sd_verdict", "sd"]]
      .map(([k, cls]) => el("th", { class: cls, text: t("h_" + k, unit) }))));
    for (const c of cards) {
      const loss = top - b.values[c];
      const row = el("tr", { "data-card-row": c, class: b.best.includes(c) ? "best" : "" });
      row.append(el("td", {}, cardSpan(c)));
      row.append(el("td", { class: "num dd", "data-dd": b.values[c], text: signed(b.values[c]) }));
      row.append(el("td", { class: "num dd", text: loss ? "−" + loss : "0" }));
      row.append(el("td", { class: "dd" }, loss ? el("button", { type: "button", class: "why", "data-why": c,
                                                                   onclick: () => askWhy(c), text: t("why") }) : ""));
      const sd = view && view.cards[c];
      if (sd) {
        row.append(el("td", { class: "num sd", "data-sd-mean": sd.mean, text: fixed(sd.mean, 1) }),
                   el("td", { class: "num sd", text: sd.low === null ? "–" : fixed(sd.low, 0) + "…" + fixed(sd.high, 0) }),
                   el("td", { class: "num sd", text: percent(sd.best_share) }),
                   el("td", { class: "num sd", text: percent(sd.big_loss) }),
                   el("td", { class: "sd verdict-" + sd.verdict, "data-verdict": sd.verdict, text: t("verdict_" + sd.verdict) }));
      } else {
        for (let i = 0; i < 5; i++) row.append(el("td", { class: "sd pending", text: "…" }));
      }
      table.append(row);
    }
  }

  // -- 4. why a card lost -----------------------------------------------------------------------

  function hideWhy() { $("why-box").hidden = true; S.why = null; }

  async function askWhy(card) {
    clearError();
    try {
      const answer = await callJson("/api/why", Object.assign(positionBody(), { card }));
      S.why = answer;
      renderWhy(answer);
      $("why-box").hidden = false;
      $("why-box").scrollIntoView({ block: "nearest" });
    } catch (e) { showError(e); }
  }

  function renderWhy(w) {
    const unit = w.unit === "tricks" ? t("tricks_unit") : t("points_unit");
    const summary = clear($("why-summary"));
    summary.append(cardSpan(w.card.card), " " + t("why_loses", w.loss, unit) + " ", cardSpan(w.best.card), ". ");
    if (w.parts_at) summary.append(t("why_parts", w.parts_at) + " ");
    const moved = Object.entries(w.moved).filter(([k, v]) => v && k !== "tricks");
    if (moved.length) {
      summary.append(t("why_moved", teamName(w.team)) + " " +
        moved.map(([k, v]) => t("kind_" + k) + " " + signed(v)).join(", ") + ".");
    }
    const box = clear($("why-lines"));
    const table = el("table", { class: "why-table" });
    table.append(el("tr", {}, el("th", { text: t("col_trick") }),
                    el("th", {}, t("after") + " ", cardSpan(w.card.card), " (" + signed(w.card.value) + ")"),
                    el("th", {}, t("after") + " ", cardSpan(w.best.card), " (" + signed(w.best.value) + ")")));
    w.card.tricks.forEach((trick, i) => {
      const other = w.best.tricks[i];
      const row = el("tr", { class: trick.number === w.parts_at ? "parts" : "", "data-trick": trick.number },
                     el("th", { text: String(trick.number) }));
      for (const tr of [trick, other]) row.append(el("td", {}, trickCell(tr)));
      table.append(row);
    });
    box.append(table);
  }

  function trickCell(trick) {
    const cell = el("span", { class: "why-trick" });
    for (const p of trick.cards) cell.append(el("span", { class: "wc" }, el("small", { text: seatName(p.seat) }), cardSpan(p.card)));
    const extra = [];
    if (trick.points) extra.push(trick.points + (trick.last ? " " + t("incl_last") : ""));
    if (trick.roem) extra.push(t("roem_n", trick.roem));
    if (trick.stuk) extra.push(t("stuk"));
    cell.append(el("span", { class: "won", text: "→ " + seatName(trick.winner) + (extra.length ? " · " + extra.join(" · ") : "") }));
    return cell;
  }

  // -- 5. the bid ---------------------------------------------------------------------------------

  function fillBidSelects() {
    const keep = (id) => $(id).value;
    const procedures = S.meta ? S.meta.procedures : ["draaikaart"];
    options($("b-procedure"), procedures.map((p) => [p, t("procedure_" + p)]), keep("b-procedure") || "draaikaart");
    options($("b-turned"), [["", "—"]].concat(SUITS.map((s) => [s, SYMBOL[s] + " " + suitName(s)])), keep("b-turned"));
    options($("b-on-all-pass"), (S.meta ? S.meta.on_all_pass : ["turned_forced"]).map((p) => [p, t("pass_" + p)]),
      keep("b-on-all-pass") || "turned_forced");
    options($("b-seat"), [["", "—"]].concat(SEATS.map((s) => [s, seatName(s)])), keep("b-seat"));
    options($("b-trump"), SUITS.map((s) => [s, SYMBOL[s] + " " + suitName(s)]), keep("b-trump"));
  }

  function bidDefaults() {
    const r = S.round;
    if (!r) return;
    if (r.trump) { $("b-turned").value = $("b-turned").value || r.trump; $("b-trump").value = r.trump; }
    if (!$("b-seat").value && r.playing && !r.bidder) {
      const leader = SEATS.indexOf(r.leader);
      const chooser = r.playing.includes(r.leader) ? r.leader : SEATS[(leader + 1) % 4];
      $("b-seat").value = chooser;
    }
  }

  function dealerOf() {
    return S.dealer || SEATS[(SEATS.indexOf(S.round.leader) + 3) % 4];
  }

  async function showBidTab() {
    if (!S.round) { $("bid-status").textContent = t("no_deal_yet"); return; }
    bidDefaults();
    if (S.table) return;
    try {
      const table = await callJson("/api/table", { deal: S.round.deal, rules: S.round.rules });
      S.table = table;
      renderTable(table);
    } catch (e) { showError(e); }
  }

  function renderTable(table) {
    const box = clear($("dd-table"));
    if (table.makes) {
      for (const team of ["NS", "EW"]) {
        const grid = el("table", { class: "grid-table", "data-table": team });
        grid.append(el("caption", { text: t("team_plays", teamName(team)) }));
        grid.append(el("tr", {}, el("th", { text: t("trump_leader") }), ...SEATS.map((s) => el("th", { text: seatName(s) }))));
        for (const suit of SUITS) {
          const row = el("tr", {}, el("th", { text: SYMBOL[suit] + " " + suitName(suit) }));
          for (const seat of SEATS) {
            const value = table.values[team][suit][seat];
            row.append(el("td", { class: "num" + (table.makes[team][suit][seat] ? " makes" : ""),
                                  text: signed(value) + (table.makes[team][suit][seat] ? "*" : "") }));
          }
          grid.append(row);
        }
        box.append(grid);
      }
    } else {
      const grid = el("table", { class: "grid-table", "data-table": "ledig" });
      grid.append(el("caption", { text: t("ledig_table") }));
      grid.append(el("tr", {}, el("th", { text: t("bidder_leader") }), ...SEATS.map((s) => el("th", { text: seatName(s) }))));
      for (const bidder of SEATS) {
        for (const [trump, leaders] of Object.entries(table.values[bidder])) {
          const row = el("tr", {}, el("th", { text: seatName(bidder) + (SYMBOL[trump] ? " " + SYMBOL[trump] : "") }));
          for (const seat of SEATS) row.append(el("td", { class: "num", text: String(leaders[seat]) }));
          grid.append(row);
        }
      }
      box.append(grid);
    }
  }

  async function checkBid() {
    clearError();
    if (!S.round) { showError(new Error(t("no_deal_yet"))); return; }
    const seat = $("b-seat").value;
    const body = { deal: S.round.deal, rules: S.round.rules, dealer: dealerOf(),
                   procedure: $("b-procedure").value, turned: $("b-turned").value || null,
                   on_all_pass: $("b-on-all-pass").value, chooser_leads: $("b-chooser-leads").checked,
                   bid: seat ? seat + " " + $("b-trump").value : null,
                   worlds: Math.max(0, Math.min(64, parseInt($("b-worlds").value, 10) || 0)) };
    $("bid-status").textContent = t("working");
    $("bid-go").disabled = true;
    try {
      S.bid = await callJson("/api/bid", body);
      renderBid(S.bid);
      $("bid-status").textContent = "";
    } catch (e) {
      $("bid-status").textContent = "";
      showError(e);
    } finally {
      $("bid-go").disabled = false;
    }
  }

  function renderBid(bid) {
    const verdict = $("bid-verdict");
    verdict.textContent = bid.verdict ? bid.verdict.text : t("no_bid");
    verdict.className = "verdict" + (bid.verdict ? " " + bid.verdict.kind : "");
    $("bid-who").textContent = bid.who_may_choose;
    const box = clear($("bid-tables"));
    const option = (seat, trump) => bid.options.find((o) => o.seat === seat && o.trump === trump);
    for (const round of bid.rounds) {
      const grid = el("table", { class: "grid-table bid" });
      if (round.title) grid.append(el("caption", { text: round.title }));
      grid.append(el("tr", {}, el("th", { text: t("col_seat") }), ...round.trumps.map((s) => el("th", { text: SYMBOL[s] + " " + suitName(s) }))));
      for (const seat of SEATS) {
        const row = el("tr", {}, el("th", { text: seatName(seat) }));
        for (const trump of round.trumps) {
          const o = option(seat, trump);
          const cell = el("td", { class: "num" + (o.allowed ? "" : " closed") + (o.makeable ? " makes" : ""),
                                  text: signed(o.value) + (o.makeable ? "*" : "") });
          if (o.sd_makes !== undefined && o.sd_makes !== null) {
            cell.append(el("small", { class: "odds", text: percent(o.sd_makes) + " · " + fixed(o.sd_value, 1) }));
          }
          row.append(cell);
        }
        grid.append(row);
      }
      box.append(grid);
    }
    if (bid.ledig && bid.ledig.length) {
      const grid = el("table", { class: "grid-table bid" });
      grid.append(el("caption", { text: t("ledig_table") }));
      for (const l of bid.ledig) {
        grid.append(el("tr", {}, el("th", { text: seatName(l.seat) + (l.trump ? " " + SYMBOL[l.trump] : "") }),
                       el("td", { class: "num" + (l.makeable ? " makes" : ""), text: String(l.value) + (l.makeable ? "*" : "") })));
      }
      box.append(grid);
    }
  }

  // -- 6. keeping: record, report, link -----------------------------------------------------------

  async function exportAs(path, name) {
    clearError();
    try {
      const body = Object.assign(positionBody(S.line.length), { dealer: S.dealer, players: S.players });
      const response = await call(path, body);
      const blob = await response.blob();
      const link = el("a", { href: URL.createObjectURL(blob), download: name });
      document.body.append(link);
      link.click();
      link.remove();
    } catch (e) { showError(e); }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(location.href);
      $("sd-status").textContent = t("link_copied");
    } catch (e) {
      showError(new Error(t("link_here") + " " + location.href));
    }
  }

  // -- wiring ---------------------------------------------------------------------------------------

  function wire() {
    for (const button of document.querySelectorAll("[data-tab]")) {
      button.addEventListener("click", () => {
        if (button.dataset.tab === "board" && !S.board) {
          if (S.round) startBoard(); else showError(new Error(t("no_deal_yet")));
          return;
        }
        setTab(button.dataset.tab);
      });
    }
    $("lang").addEventListener("change", () => {
      lang = $("lang").value;
      try { localStorage.setItem(LANG_KEY, lang); } catch (e) { /* private mode */ }
      applyWords();
    });
    $("paste-go").addEventListener("click", () => readDeal({ text: $("paste").value.trim(), notation: $("paste-notation").value }));
    $("seed-go").addEventListener("click", () => readDeal({ seed: Math.max(0, parseInt($("seed").value, 10) || 0) }));
    $("record-file").addEventListener("change", async () => {
      const file = $("record-file").files[0];
      if (file) readRecord(await file.text());
    });
    const drop = $("drop");
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", async (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      const file = e.dataTransfer.files[0];
      if (file) readRecord(await file.text());
    });
    $("build-rest").addEventListener("click", buildRest);
    $("build-clear").addEventListener("click", () => { builder.owner = {}; builder.seat = "N"; renderBuilder(); });
    $("build-go").addEventListener("click", () => readDeal({ text: builtPbn(), notation: "en" }));
    $("f-preset").addEventListener("change", () => {
      const preset = $("f-preset").value;
      if (preset !== "custom") setRulesForm(preset);
    });
    $("f-dealer").addEventListener("change", () => {
      const dealer = $("f-dealer").value;
      if (dealer) $("f-leader").value = SEATS[(SEATS.indexOf(dealer) + 1) % 4];
    });
    $("rules-form").addEventListener("change", rulesChanged);
    $("start").addEventListener("click", startFromForm);
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(S.at - 1));
    $("next").addEventListener("click", () => go(S.at + 1));
    $("last").addEventListener("click", () => go(S.line.length));
    $("perfect").addEventListener("click", perfectPlay);
    $("to-main").addEventListener("click", toMain);
    $("sd-on").addEventListener("change", () => {
      try { localStorage.setItem(SD_KEY, $("sd-on").checked ? "on" : "off"); } catch (e) { /* private mode */ }
      startView();
    });
    $("sd-worlds").addEventListener("change", startView);
    $("bid-go").addEventListener("click", checkBid);
    $("export-record").addEventListener("click", () => exportAs("/api/export/record", "round.json"));
    $("export-report").addEventListener("click", () => exportAs("/api/export/report", "report.html"));
    $("copy-link").addEventListener("click", copyLink);
    document.addEventListener("keydown", (e) => {
      if (S.tab !== "board" || !S.board) return;
      if (e.target.closest && e.target.closest("input, select, textarea")) return;
      const moves = { ArrowLeft: S.at - 1, ArrowRight: S.at + 1, Home: 0, End: S.line.length };
      if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
    });
  }

  async function init() {
    try { $("sd-on").checked = localStorage.getItem(SD_KEY) !== "off"; } catch (e) { /* private mode */ }
    wire();
    try {
      S.meta = await callJson("/api/rules");
    } catch (e) { showError(e); }
    applyWords();
    setRulesForm("amsterdam");
    if (loadUrl()) {
      fillRoundForm();
      const tab = location.hash.slice(1);
      S.tab = ["board", "bid", "setup"].includes(tab) ? tab : "board";
      if (S.tab === "board") { setTab("board"); await show(); }
      else { setTab(S.tab); show(); }
    } else {
      setTab("setup");
    }
    document.body.dataset.ready = "true";
  }

  document.addEventListener("DOMContentLoaded", init);
})();
