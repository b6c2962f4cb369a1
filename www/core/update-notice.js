// "A new version is ready. Reload" (issue 45): shown by isolate.js when a newer service
// worker (a new deployment, coi-sw.js) has installed and precached beside the running one.
// Loaded only then, so the page carries none of it; its words are here in the four
// languages. Polite: a status line at the top of the window (over the page's title, not its
// controls: at the foot it covered the timeline bar), never a dialog or focus
// taken; Reload tells the waiting worker to take over and reloads once it has.

const WORDS = {
  en: ['A new version is ready.', 'Reload'],
  uk: ['Нова версія готова.', 'Перезавантажити'],
  pl: ['Nowa wersja jest gotowa.', 'Odśwież'],
  ru: ['Новая версия готова.', 'Перезагрузить'],
};

/** Shows the notice once for `worker` (a ServiceWorker in state "installed"). */
export function showUpdate(worker) {
  if (document.getElementById('update-notice')) return;
  const [message, action] = WORDS[document.documentElement.lang] ?? WORDS.en;
  const box = document.createElement('div');
  box.id = 'update-notice';
  box.setAttribute('role', 'status');
  Object.assign(box.style, {
    position: 'fixed', insetInline: '0', top: '0.75rem', margin: '0 auto', width: 'max-content', maxWidth: 'calc(100% - 1.5rem)',
    zIndex: '1000', padding: '0.5rem 0.75rem', borderRadius: '0.5rem', background: '#1f2937', color: '#f9fafb',
    font: '0.95rem/1.4 system-ui, sans-serif', boxShadow: '0 2px 8px rgb(0 0 0 / 0.4)',
  });
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = action;
  button.style.marginInlineStart = '0.75rem';
  button.addEventListener('click', () => {
    button.disabled = true;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') location.reload();
    });
    worker.postMessage({ type: 'skip-waiting' });
  });
  box.append(`${message} `, button);
  document.body.append(box);
}
