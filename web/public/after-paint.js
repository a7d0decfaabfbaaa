/*
 * On a public page the server painted (server/plugins/prerender.ts puts this script in place of the app's entry
 * script). The page is complete without the app: its links are real links and its text is all there. So the app's
 * ~200 KB of script is not fetched, run or hydrated for a visitor who only reads: it is requested when the visitor
 * first engages (moves the mouse, touches the screen, presses a key, focuses a field), which a reader on a desktop
 * does within a second and a phone's first touch does before its first tap lands (issue 18: "usable before the whole
 * app loads"; the first-load script of the home page).
 *
 * What the visitor does before the app has taken over is not lost. Until the app announces that it has hydrated
 * the page (web/src/prerender/hydrated.ts), the events React would act on are kept from it, so React hydrates in its
 * own time slices and is never made to hydrate in the middle of one event: the browser still types, focuses, scrolls
 * and selects as usual. A click on a control (a button, a tab, a checkbox...) and a form's submission are held;
 * once the app is there, text typed into a field and a choice made in a list are handed to it, and the held clicks
 * are made again, each control once, in order. Links are left to the browser: followed before the app, they load the
 * next painted page.
 * `<html data-app>` says where it stands (the e2e harness and the benches read it): waiting, loading, taken-over, or
 * failed.
 */
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  var html = document.documentElement;
  var ENGAGEMENT = ['pointerdown', 'mousemove', 'touchstart', 'keydown', 'focusin', 'wheel'];
  // The events React hydrates the page at once for (react-dom's discreteReplayableEvents) less click and submit,
  // which are held: kept from React until it has hydrated; the browser's own handling of them goes on.
  var KEPT_FROM_REACT = [
    'mousedown', 'mouseup', 'touchcancel', 'touchend', 'touchstart', 'auxclick', 'dblclick', 'pointercancel',
    'pointerdown', 'pointerup', 'dragend', 'dragstart', 'drop', 'compositionend', 'compositionstart', 'keydown',
    'keypress', 'keyup', 'input', 'textInput', 'copy', 'cut', 'paste', 'change', 'contextmenu', 'reset',
  ];
  var CONTROL = [
    'button', '[role="button"]', '[role="tab"]', '[role="checkbox"]', '[role="switch"]', '[role="radio"]',
    '[role="combobox"]', '[role="menuitem"]', 'input', 'summary', 'label',
  ].join(', ');
  var NOT_TEXT = /^(checkbox|radio|submit|button|reset|image|file|hidden)$/;
  /** @type {HTMLElement[]} */
  var held = [];
  /** @type {{ form: HTMLFormElement, submitter: HTMLElement | null }[]} */
  var heldSubmits = [];
  var requested = false;

  function loadApp() {
    if (requested) return;
    requested = true;
    ENGAGEMENT.forEach(function (type) {
      window.removeEventListener(type, loadApp, true);
    });
    html.dataset.app = 'loading';
    var module = document.createElement('script');
    module.type = 'module';
    module.crossOrigin = '';
    module.src = /** @type {string} */ (entry);
    module.onerror = notLoaded;
    document.head.appendChild(module);
  }

  /**
   * The app did not arrive (a dropped connection). The page cannot ask for it again: it remembers a module that
   * failed as failed, and the app's own chunks import the entry by its name. So what was held is let go, the painted
   * page stays as it is (its links work), and the visitor's next click on a control or form sent loads the page
   * afresh.
   */
  function notLoaded() {
    held.forEach(function (control) {
      showHeld(control, false);
    });
    held = [];
    heldSubmits = [];
    html.style.cursor = '';
    html.dataset.app = 'failed';
  }

  /** @param {Event} event */
  function keepFromReact(event) {
    event.stopImmediatePropagation();
  }

  /** @param {MouseEvent} event */
  function holdClick(event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || target.closest('a[href]')) return;
    event.stopImmediatePropagation();
    var control = /** @type {HTMLElement | null} */ (target.closest(CONTROL));
    // A click in a text field only places the caret: the browser does that without the app.
    if (!control || (control.matches('input') && !NOT_TEXT.test(/** @type {HTMLInputElement} */ (control).type))) return;
    event.preventDefault();
    if (html.dataset.app === 'failed') return location.reload();
    if (held.indexOf(control) < 0) {
      held.push(control);
      showHeld(control, true);
    }
    html.style.cursor = 'progress';
    loadApp();
  }

  /**
   * A held control shows that it was pressed (a phone has no busy pointer): dimmed and busy until it is let go.
   * @param {HTMLElement} control
   * @param {boolean} on
   */
  function showHeld(control, on) {
    if (on) {
      control.setAttribute('aria-busy', 'true');
      control.style.opacity = '0.6';
    } else {
      control.removeAttribute('aria-busy');
      control.style.removeProperty('opacity');
    }
  }

  /** @param {SubmitEvent} event */
  function holdSubmit(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
    if (html.dataset.app === 'failed') return location.reload();
    heldSubmits.push({ form: /** @type {HTMLFormElement} */ (event.target), submitter: event.submitter || null });
    loadApp();
  }

  /** @type {Record<string, ((value: string) => void) | undefined>} */
  var valueSetters = {
    INPUT: /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')).set,
    TEXTAREA: /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')).set,
  };

  /**
   * Gives a field's text to React as typing does: set past React's value tracking, then announced as input.
   * @param {HTMLInputElement | HTMLTextAreaElement} field
   * @param {string} value
   */
  function typeInto(field, value) {
    /** @type {(value: string) => void} */ (valueSetters[field.tagName]).call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }

  /**
   * The value a list was painted with: its option marked selected, else its first.
   * @param {HTMLSelectElement} list
   */
  function firstChoice(list) {
    for (var i = 0; i < list.options.length; i++) if (list.options[i].defaultSelected) return list.options[i].value;
    return list.options.length ? list.options[0].value : '';
  }

  function takenOver() {
    KEPT_FROM_REACT.forEach(function (type) {
      document.removeEventListener(type, keepFromReact, true);
    });
    document.removeEventListener('click', holdClick, true);
    document.removeEventListener('submit', holdSubmit, true);
    // React hydrated the field with the text in it as its starting point: emptied first, the text is then a change.
    document.querySelectorAll(/** @type {'input'} */ ('#root input, #root textarea')).forEach(function (field) {
      if (NOT_TEXT.test(field.type) || field.value === field.defaultValue) return;
      var value = field.value;
      typeInto(field, field.defaultValue);
      typeInto(field, value);
    });
    // A choice made in a list meanwhile: React acts on the list's change event.
    document.querySelectorAll(/** @type {'select'} */ ('#root select')).forEach(function (list) {
      if (!list.multiple && list.value !== firstChoice(list)) list.dispatchEvent(new Event('change', { bubbles: true }));
    });
    // The clicks in a task of their own, once React has rendered what the typing changed (a submit reads the field's
    // state).
    setTimeout(function () {
      held.forEach(function (control) {
        showHeld(control, false);
        if (control.isConnected) control.click();
      });
      heldSubmits.forEach(function (s) {
        if (!s.form.isConnected || typeof s.form.requestSubmit !== 'function') return;
        s.form.requestSubmit(s.submitter && s.submitter.isConnected ? s.submitter : undefined);
      });
      held = heldSubmits = [];
      html.style.cursor = '';
      html.dataset.app = 'taken-over';
    }, 0);
  }

  KEPT_FROM_REACT.forEach(function (type) {
    document.addEventListener(type, keepFromReact, true);
  });
  document.addEventListener('click', holdClick, true);
  document.addEventListener('submit', holdSubmit, true);
  // The app's hydration is announced by part (web/src/prerender/hydrated.ts): the frame, then the route's screen,
  // which sits in a Suspense boundary when the server painted one (React marks it with a <!--$--> comment).
  var root = document.getElementById('root');
  var walker = root && document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  var boundary = false;
  while (!boundary && walker && walker.nextNode()) boundary = /** @type {Comment} */ (walker.currentNode).data === '$';
  /** @param {Event} event */
  function onHydrated(event) {
    if (boundary && /** @type {CustomEvent} */ (event).detail !== 'content') return;
    document.removeEventListener('halal:hydrated', onHydrated);
    takenOver();
  }
  document.addEventListener('halal:hydrated', onHydrated);
  html.dataset.app = 'waiting';
  ENGAGEMENT.forEach(function (type) {
    window.addEventListener(type, loadApp, { capture: true, passive: true });
  });
  // What the visitor must be told at once is told by the app, so it comes now: the session that ended while they were
  // away (web/src/session/session-store.ts endIdleSession leaves this mark, web/src/session/ended-key.ts names it).
  try {
    if (localStorage.getItem('halal.sessionEnded') !== null) loadApp();
  } catch {
    // Storage blocked: the app comes at the first engagement, as on any painted page.
  }
})();
