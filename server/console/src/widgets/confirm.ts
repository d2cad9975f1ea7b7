// Confirmation before an action that cannot be undone or that changes what visitors see (revoke, panic,
// interrupt, delete): a native modal <dialog> (focus trapped and restored by the browser, Escape cancels).

/** Asks `question`; resolves true when the user confirms with `confirmLabel`. */
export const confirmAction = (question: string, detail: string, confirmLabel: string): Promise<boolean> =>
  new Promise((resolve) => {
    const dialog = document.createElement('dialog');
    dialog.className = 'console-confirm';
    dialog.setAttribute('aria-labelledby', 'console-confirm-title');
    dialog.setAttribute('aria-describedby', 'console-confirm-detail');
    const title = document.createElement('h2');
    title.id = 'console-confirm-title';
    title.textContent = question;
    const text = document.createElement('p');
    text.id = 'console-confirm-detail';
    text.textContent = detail;
    const actions = document.createElement('form');
    actions.method = 'dialog';
    const cancel = document.createElement('button');
    cancel.value = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.className = 'secondary';
    const confirm = document.createElement('button');
    confirm.value = 'confirm';
    confirm.textContent = confirmLabel;
    confirm.className = 'danger';
    actions.append(cancel, confirm);
    dialog.append(title, text, actions);
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
