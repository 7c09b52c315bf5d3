// The replay's keyboard: ← and → step, Home and End jump to the first and last frame.
// The page works without this script: every step is a plain link.
"use strict";

const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select, summary")) return;
  const step = KEYS[event.key];
  if (!step) return;
  const link = document.querySelector(`a[data-step="${step}"]`);
  if (!link) return;
  event.preventDefault();
  window.location.assign(link.href);
});
