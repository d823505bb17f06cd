// "Download PNG": the map as it is now, with a caption strip (title, date window, attribution)
// drawn into the picture, saved as <story-id>_<from>_<to>.png. The vendored html-to-image draws
// the map's own DOM into a canvas; nothing is fetched (the basemap and the story are SVG, icons
// inline SVG, labels text, fonts the system's), and online tiles, which come from other hosts,
// are left out: the offline map shows in their place. Data is drawn as text, never as markup.
(function () {
    var DL = (window.Dateline = window.Dateline || {});
    // On-screen furniture the picture has no use for; the strip says what the date box and the
    // attribution say.
    var LEAVE_OUT = ['leaflet-control-zoom', 'dl-fs', 'dl-png', 'dl-date',
                     'leaflet-control-attribution', 'leaflet-tile', 'leaflet-popup-pane'];
    var ICON = '<svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="#333" ' +
               'stroke-width="1.8" aria-hidden="true"><path d="M8 1.5v8M4.5 6.5 8 10l3.5-3.5' +
               'M2 11.5v3h12v-3"/></svg>';
    // Caption rows: [font size px, weight, colour, most lines]; a hostile title stays a strip.
    // A phone-sized map gets smaller type, so a long title fits without being cut.
    var ROWS = [[16, 700, '#1d1d1f', 4], [13, 400, '#333', 2], [11, 400, '#555', 3]];
    var NARROW = 480, NARROW_ROWS = [[14, 700, '#1d1d1f', 4], [12, 400, '#333', 2],
                                     [10, 400, '#555', 4]];
    var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
    var PAD = 10;

    // The window the map shows: set on every rerun (dashboard) or draw (published page).
    DL.pngWindow = null;

    function wrap(ctx, text, width, most) {
        var words = String(text || '').split(/\s+/).filter(Boolean), lines = [], line = '';
        words.forEach(function (w) {
            var next = line ? line + ' ' + w : w;
            if (line && ctx.measureText(next).width > width) { lines.push(line); line = w; }
            else { line = next; }
        });
        if (line) { lines.push(line); }
        if (lines.length > most) {
            lines = lines.slice(0, most);
            var last = lines[most - 1];
            while (last && ctx.measureText(last + '…').width > width) { last = last.slice(0, -1); }
            lines[most - 1] = last + '…';
        }
        return lines;
    }

    function windowText(win) {
        var f = DL.format;
        return f ? f.span(win.start, win.end) : win.start + ' – ' + win.end;
    }

    // Draws the strip across the top of the picture (in CSS pixels, scaled by ``ratio``).
    function caption(canvas, ratio, texts) {
        var ctx = canvas.getContext('2d'), width = canvas.width / ratio;
        ctx.save();
        ctx.scale(ratio, ratio);
        var lines = [];
        (width < NARROW ? NARROW_ROWS : ROWS).forEach(function (row, n) {
            ctx.font = row[1] + ' ' + row[0] + 'px ' + FONT;
            wrap(ctx, texts[n], width - 2 * PAD, row[3]).forEach(function (t) {
                lines.push({text: t, font: ctx.font, colour: row[2], h: Math.round(row[0] * 1.3)});
            });
        });
        var height = PAD * 2 + lines.reduce(function (sum, l) { return sum + l.h; }, 0);
        ctx.fillStyle = 'rgba(255,255,255,0.93)';
        ctx.fillRect(0, 0, width, height);
        ctx.fillStyle = 'rgba(0,0,0,0.25)';
        ctx.fillRect(0, height - 1, width, 1);
        ctx.textBaseline = 'top';
        var y = PAD;
        lines.forEach(function (l) {
            ctx.font = l.font;
            ctx.fillStyle = l.colour;
            ctx.fillText(l.text, PAD, y + 1);
            y += l.h;
        });
        ctx.restore();
        return height;
    }

    function keep(node) {
        var cls = node.classList;
        return !cls || !LEAVE_OUT.some(function (c) { return cls.contains(c); });
    }

    function fileName(id, win) {
        var safe = function (s) { return String(s).replace(/[^A-Za-z0-9._-]+/g, '-'); };
        return safe(id) + '_' + safe(win.start) + '_' + safe(win.end) + '.png';
    }

    // The picture of ``map`` as a canvas: the map element's size in CSS pixels times the
    // screen's devicePixelRatio, caption strip included.
    // The legend is always in the picture: a slide's colours need it. A folded legend is
    // opened while the picture is drawn (a clone of the page is drawn, so it must be open in
    // the page), then folded again.
    function openLegends(node) {
        var folded = Array.prototype.filter.call(node.querySelectorAll('.dl-legend details'),
            function (d) { return !d.open; });
        folded.forEach(function (d) { d.open = true; });
        return function () { folded.forEach(function (d) { d.open = false; }); };
    }

    DL.pngCanvas = function (map, cfg) {
        var node = map.getContainer();
        var win = DL.pngWindow || {start: cfg.start, end: cfg.end};
        var ratio = window.devicePixelRatio || 1;
        var refold = openLegends(node);
        return window.htmlToImage.toCanvas(node, {
            width: node.clientWidth, height: node.clientHeight, pixelRatio: ratio,
            skipFonts: true, cacheBust: false, filter: keep,
            backgroundColor: getComputedStyle(node).backgroundColor
        }).then(function (canvas) {
            refold();
            var strip = caption(canvas, ratio, [cfg.title, windowText(win), cfg.attribution]);
            return {canvas: canvas, name: fileName(cfg.id, win), strip: strip, ratio: ratio};
        }, function (err) {
            refold();
            throw err;
        });
    };

    function save(canvas, name) {
        return new Promise(function (resolve, reject) {
            canvas.toBlob(function (blob) {
                if (!blob) { reject(new Error('no PNG')); return; }
                var a = document.createElement('a');
                a.href = URL.createObjectURL(blob);
                a.download = name;
                a.style.display = 'none';
                document.body.appendChild(a);
                a.click();
                a.remove();
                // The download has its own copy once it started; the URL is only a handle.
                setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
                resolve();
            }, 'image/png');
        });
    }

    // The button, under the zoom and full-screen buttons. cfg: id, title, start, end (the
    // story's span, until a window is set), attribution.
    DL.pngControl = function (map, cfg) {
        var ctl = L.control({position: 'topleft'});
        ctl.onAdd = function () {
            var div = L.DomUtil.create('div', 'leaflet-bar dl-png');
            var button = L.DomUtil.create('button', '', div);
            button.type = 'button';
            button.title = 'Download PNG';
            button.setAttribute('aria-label', 'Download PNG');
            button.innerHTML = ICON;
            L.DomEvent.disableClickPropagation(div);
            L.DomEvent.on(button, 'click', function (e) {
                L.DomEvent.preventDefault(e);
                if (button.disabled) { return; }
                button.disabled = true;
                div.setAttribute('data-state', 'working');
                DL.pngCanvas(map, cfg).then(function (pic) {
                    return save(pic.canvas, pic.name);
                }).then(function () {
                    div.setAttribute('data-state', 'done');
                }).catch(function (err) {
                    console.warn('png', err);
                    div.setAttribute('data-state', 'failed');
                    button.title = 'Download PNG (failed: try again)';
                }).then(function () { button.disabled = false; });
            });
            return div;
        };
        ctl.addTo(map);
        return ctl;
    };
})();
