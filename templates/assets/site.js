/* BoardArchive page script: keeps "new" badges and date labels true against the reader's own clock.
 *
 * The build renders badges and labels for its own "now" (the page works without JavaScript). When the
 * archive is opened later, this script re-evaluates every row against the reader's clock in the
 * archive's time zone (body[data-tz], an IANA zone; body[data-tz-offset] in minutes is the fallback when
 * Intl does not know the zone). Classic script, no modules, no network: works from file://.
 */
(function () {
  'use strict';
  var body = document.body;
  if (!body || !document.querySelectorAll) { return; }
  var zone = body.getAttribute('data-tz') || 'UTC';
  var fallbackOffset = parseInt(body.getAttribute('data-tz-offset') || '0', 10) || 0;
  var newLabel = body.getAttribute('data-new-label') || 'N';
  var newTitle = body.getAttribute('data-new-title') || '';

  var formatter = null;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
      second: '2-digit'
    });
    if (typeof formatter.formatToParts !== 'function') { formatter = null; }
  } catch (error) {
    formatter = null;
  }

  /* The wall-clock reading of a Date in the archive's time zone. */
  function localParts(date) {
    if (formatter) {
      var parts = {};
      var list = formatter.formatToParts(date);
      for (var i = 0; i < list.length; i++) { parts[list[i].type] = list[i].value; }
      return { y: +parts.year, m: +parts.month, d: +parts.day, hh: (+parts.hour) % 24, mm: +parts.minute, ss: +parts.second };
    }
    var shifted = new Date(date.getTime() + fallbackOffset * 60000);
    return {
      y: shifted.getUTCFullYear(), m: shifted.getUTCMonth() + 1, d: shifted.getUTCDate(),
      hh: shifted.getUTCHours(), mm: shifted.getUTCMinutes(), ss: shifted.getUTCSeconds()
    };
  }

  /* value in decimal, zero-padded to width digits (2 by default). */
  function pad(value, width) {
    var text = String(value);
    while (text.length < (width || 2)) { text = '0' + text; }
    return text;
  }

  function sameDay(a, b) { return a.y === b.y && a.m === b.m && a.d === b.d; }

  /* A row's date label, as the build writes it: HH:mm for a post of today, yy-MM-dd otherwise. */
  function shortLabel(local, today) {
    return sameDay(local, today) ? pad(local.hh) + ':' + pad(local.mm) : pad(local.y % 100) + '-' + pad(local.m) + '-' + pad(local.d);
  }

  /* The one date module of the site's scripts: search.js builds its rows' dates and badges with it. */
  window.BoardArchiveDates = {
    localParts: localParts,
    sameDay: sameDay,
    pad: pad,
    shortLabel: shortLabel,
    /* yyyy-MM-dd HH:mm:ss, a time element's title. */
    fullLabel: function (local) {
      return pad(local.y, 4) + '-' + pad(local.m) + '-' + pad(local.d) + ' ' + pad(local.hh) + ':' + pad(local.mm) + ':' + pad(local.ss);
    },
    /* Seconds since 1970 as an ISO 8601 instant without milliseconds (a time element's datetime). */
    iso: function (seconds) { return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'); }
  };

  function parse(element) {
    var text = element && element.getAttribute('datetime');
    if (!text) { return null; }
    var date = new Date(text);
    return isNaN(date.getTime()) ? null : date;
  }

  var today = localParts(new Date());

  /* Date labels: HH:mm for today, yy-MM-dd otherwise. */
  var times = document.querySelectorAll('time[data-format="short"]');
  for (var t = 0; t < times.length; t++) {
    var date = parse(times[t]);
    if (!date) { continue; }
    times[t].textContent = shortLabel(localParts(date), today);
  }

  /* New badges: present exactly when the row's first <time> is today. */
  var scopes = document.querySelectorAll('[data-fresh]');
  for (var s = 0; s < scopes.length; s++) {
    var scope = scopes[s];
    var when = parse(scope.querySelector('time[datetime]'));
    var isNew = when !== null && sameDay(localParts(when), today);
    var badge = scope.querySelector('.new-badge');
    if (badge && !isNew) {
      badge.parentNode.removeChild(badge);
    } else if (!badge && isNew) {
      var slot = scope.querySelector('.badge-slot');
      if (slot) {
        badge = document.createElement('span');
        badge.className = 'new-badge';
        badge.textContent = newLabel;
        if (newTitle) { badge.title = newTitle; }
        slot.appendChild(badge);
      }
    }
  }
}());
