// The replay of the report page: steps through the recorded play with the buttons and the
// arrow keys. Python renders every card's markup (report-data: "cards" each card plain, and
// each step's legal cards with their values); this script only places it.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("report-data").textContent);
  let shown = 0;   // how many cards of the play are on the table or gone

  function show() {
    const played = new Set(D.played.slice(0, shown));
    const step = shown < D.steps.length ? D.steps[shown] : null;
    for (const seat of Object.keys(D.hands)) {
      const toMove = step !== null && step.seat === seat;
      let html = D.labels[seat] + (toMove ? '<span class="seat">\u25b6</span>' : "");
      // The dummy of three players lies face down until the defenders may see it; on its
      // turn it is open, as the chooser who plays it sees it.
      const closed = seat === D.dummy && !toMove &&
        (D.dummy_open_from === null || shown < D.dummy_open_from);
      for (const code of D.hands[seat]) {
        if (played.has(code)) continue;
        html += closed ? D.back : (toMove && step.cards[code]) || D.cards[code];
      }
      document.querySelector("#replay .hand." + seat).innerHTML = html;
    }
    // A revoke keeps its mark on the table (D.marked); every other card shows plain.
    // A revoke that completes a trick stays on the table: the round ends there.
    const ended = shown > 0 && shown === D.played.length && D.marked[D.played[shown - 1]];
    const trick = D.played.slice(shown - (shown % 4 || (ended ? 4 : 0)), shown)
      .map((code) => D.marked[code] || D.cards[code]);
    document.querySelector("#replay .middle").innerHTML = "<div>" + trick.join("") + "</div>";
    document.getElementById("step-note").innerHTML = step ? step.note : D.end;
    document.getElementById("step-count").textContent = shown + " / " + D.played.length;
  }

  document.getElementById("prev").onclick = function () {
    if (shown > 0) { shown--; show(); }
  };
  document.getElementById("next").onclick = function () {
    if (shown < D.played.length) { shown++; show(); }
  };
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") document.getElementById("next").click();
    if (event.key === "ArrowLeft") document.getElementById("prev").click();
  });
  show();
})();
