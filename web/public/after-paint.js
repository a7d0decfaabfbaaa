/*
 * On a page the server painted (server/plugins/prerender.ts puts this script in place of the app's entry script):
 * the app's entry script is requested once the page is on screen, so the HTML, styles and fonts that paint it have
 * the connection to themselves. The page works meanwhile: its links are real links.
 */
(function () {
  var entry = document.currentScript && document.currentScript.getAttribute('data-entry');
  if (!entry) return;
  requestAnimationFrame(function () {
    setTimeout(function () {
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = entry;
      document.head.appendChild(script);
    }, 0);
  });
})();
