/* global document, navigator, window */
// The portal's only script, and an optional one: every page works without it. It adds a copy
// button for a new key and a confirmation before revoking one.
"use strict";

function copyFrom(button) {
  const input = document.getElementById(button.dataset.copy);
  const status = document.querySelector(".copy-status");
  const done = (message) => {
    if (status) status.textContent = message;
  };
  const fallback = () => {
    input.select();
    done(document.execCommand("copy") ? "Copied." : "Select the key and copy it.");
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(() => done("Copied."), fallback);
  } else fallback();
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (button) copyFrom(button);
});

document.addEventListener("submit", (event) => {
  const message = event.target.dataset && event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
