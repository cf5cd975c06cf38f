import { draw } from "./draw.js";
import { page, $, live, squares } from "./page.js";
import { movesHere, playHere } from "./practice.js";

// Drag and drop, with a mouse or a finger: press a piece that can move, let go on one of its
// targets. A press without a move is left to the click (click–click still works).
let drag = null;            // { from, id, x, y, moved }
export function dragPiece() { return drag && squares[drag.from] && squares[drag.from].querySelector(".piece"); }
export function endDrag() {
  const piece = dragPiece();
  if (piece) { piece.style.transform = ""; piece.classList.remove("dragging"); }
  drag = null;
}
export function listenForDrags() {
  $("board").addEventListener("pointerdown", (e) => {
    const sq = e.target.closest(".sq");
    if (!sq || e.button !== 0) return;
    const name = sq.dataset.square;
    if (!movesHere().some(m => m.startsWith(name + ":"))) return;
    drag = { from: name, id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
  });
  $("board").addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved) {
      if (Math.hypot(dx, dy) < 6) return;
      drag.moved = true;
      // From here the board has the pointer: the click that follows is not a square's.
      $("board").setPointerCapture(e.pointerId);
      page.selected = drag.from;
      draw();
      dragPiece().classList.add("dragging");
    }
    const piece = dragPiece();
    if (piece) piece.style.transform = "translate(" + dx + "px, " + dy + "px)";
  });
  $("board").addEventListener("pointerup", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const { from, moved } = drag;
    endDrag();
    if (!moved) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const to = under && under.closest(".sq") ? under.closest(".sq").dataset.square : null;
    page.selected = null;
    if (to && movesHere().includes(from + ":" + to)) {
      dropped = from + ":" + to;
      playHere(dropped);
    }
    draw();
  });
  $("board").addEventListener("pointercancel", () => { endDrag(); draw(); });
}

// A move slides its piece from where it was (a short animation; none when the system asks for
// reduced motion, nor for a piece this page just dropped there).
let dropped = null;         // the move this page's drag just made
export function forgetDrop() { dropped = null; }
export function animateMove(mv) {
  if (!mv || mv === "a1:a1" || mv === dropped || !live()) return;
  if (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const [from, to] = mv.split(":");
  const piece = squares[to] && squares[to].querySelector(".piece");
  if (!piece || !piece.animate || !squares[from]) return;
  const a = squares[from].getBoundingClientRect();
  const b = squares[to].getBoundingClientRect();
  piece.animate([{ transform: "translate(" + (a.left - b.left) + "px, " + (a.top - b.top) + "px)" },
    { transform: "none" }], { duration: page.moveMs, easing: "ease-out" });
}
