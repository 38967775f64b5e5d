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

// "All permissions" on the create-key form, kept in step with the boxes below it. Only a
// convenience: without JavaScript the box still works, the server grants every permission.
function syncSelectAll(all) {
  const boxes = Array.from(document.querySelectorAll(`input[type=checkbox][name="${all.getAttribute('data-select-all')}"]`));
  const ticked = boxes.filter((box) => box.checked).length;
  all.checked = boxes.length > 0 && ticked === boxes.length;
  all.indeterminate = ticked > 0 && ticked < boxes.length;
}
document.addEventListener('change', (event) => {
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || target.type !== 'checkbox') return;
  const name = target.getAttribute('data-select-all');
  if (name) {
    for (const box of document.querySelectorAll(`input[type=checkbox][name="${name}"]`)) box.checked = target.checked;
    target.indeterminate = false;
    return;
  }
  for (const all of document.querySelectorAll(`[data-select-all="${target.name}"]`)) syncSelectAll(all);
});
document.addEventListener('DOMContentLoaded', () => {
  for (const all of document.querySelectorAll('[data-select-all]')) if (!all.checked) syncSelectAll(all);
});

// The inbox's upload form: a file dropped onto it fills its file picker and is uploaded at once.
// Only a convenience: without JavaScript the picker and the Upload button do the same.
for (const zone of document.querySelectorAll('form[data-dropzone]')) {
  const input = zone.querySelector('input[type=file]');
  if (!input) continue;
  const over = (on) => (event) => {
    event.preventDefault();
    zone.classList.toggle('dragging', on);
  };
  zone.addEventListener('dragenter', over(true));
  zone.addEventListener('dragover', over(true));
  zone.addEventListener('dragleave', over(false));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const files = event.dataTransfer && event.dataTransfer.files;
    if (!files || files.length === 0) return;
    const one = new DataTransfer();
    one.items.add(files[0]);
    input.files = one.files;
    zone.requestSubmit();
  });
}
