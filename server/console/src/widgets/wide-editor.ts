// A wide editor for a value too long for its cell (a headline, a JSON object): a native modal <dialog> in the
// page (focus trapped and given back by the browser, Escape cancels) with a textarea as wide as the window
// allows. Done hands the text back; Cancel and Escape leave the value as it was.

/** Edits `text` in a wide dialog titled `title`; resolves the new text, or null when cancelled. */
export const editWide = (title: string, text: string, monospace: boolean): Promise<string | null> =>
  new Promise((resolve) => {
    const dialog = document.createElement('dialog');
    dialog.className = 'console-confirm console-wide';
    dialog.setAttribute('aria-labelledby', 'console-wide-title');
    const heading = document.createElement('h2');
    heading.id = 'console-wide-title';
    heading.textContent = title;
    const area = document.createElement('textarea');
    area.value = text;
    area.rows = 12;
    area.spellcheck = !monospace;
    area.setAttribute('aria-labelledby', 'console-wide-title');
    if (monospace) area.classList.add('mono');
    const actions = document.createElement('form');
    actions.method = 'dialog';
    const cancel = document.createElement('button');
    cancel.value = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.className = 'secondary';
    const done = document.createElement('button');
    done.value = 'done';
    done.textContent = 'Done';
    done.className = 'primary';
    actions.append(cancel, done);
    dialog.append(heading, area, actions);
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'done' ? area.value : null);
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    area.focus();
  });
