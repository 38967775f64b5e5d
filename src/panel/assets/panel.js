// The copy button of the one-time key and secret displays. Without JavaScript the text is still selectable.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy-target]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy-target'));
  const status = document.getElementById('copy-status');
  if (!source) return;
  const text = source.textContent.trim();
  const what = button.getAttribute('data-copy-what') || 'key';
  const selectIt = () => {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  };
  const done = (message) => { if (status) status.textContent = message; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(
      () => { button.textContent = 'Copied'; done(`The ${what} is on your clipboard.`); },
      () => { selectIt(); done(`Copying was blocked: the ${what} is selected, press Ctrl+C (Cmd+C).`); },
    );
  } else {
    selectIt();
    done(`The ${what} is selected: press Ctrl+C (Cmd+C) to copy it.`);
  }
});
