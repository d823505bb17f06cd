// The offline basemap and the map's furniture, run once when the map is created.
// Land and borders come in two zoom tiers, rivers and lakes for the story's region, and labels
// (countries, cities, the story's places) placed by a greedy collision pass on every move.
// The files are static: the browser fetches and caches them, reruns never send them again.
// streamlit_folium reports the map's view the moment the map is made, before its layers are
// drawn; on a big story that report reruns the app, and the rerun's messages then compete with
// the first drawing (0.2 s of a cold open). Whatever the map sends before its first paint waits
// for it, and only the latest value goes, as each value carries the whole state. A frame that
// never paints (a hidden tab) sends after half a second.
window.dlHoldFirstReport = function (S) {
    if (!S || !S.setComponentValue || S.dlHeld) { return; }
    S.dlHeld = true;
    var send = S.setComponentValue, pending, last, waiting = false, open = false;
    var go = function () {
        if (open) { return; }
        open = true;
        last = pending;
        send.call(S, pending);
    };
    S.setComponentValue = function (value) {
        if (open) { last = value; return send.call(S, value); }
        pending = value;
        if (!waiting) {
            waiting = true;
            requestAnimationFrame(function () { setTimeout(go, 0); });
            setTimeout(go, 500);
        }
    };
    // The page's first run draws only the title, dates and map; the map asks for the rest
    // (sidebar, details, timeline) once it has painted the story, with what it had to send.
    S.dlSendPainted = function () {
        var value = Object.assign({}, (open ? last : pending) || {}, {dl_painted: true});
        if (open) { last = value; send.call(S, value); } else { pending = value; go(); }
    };
};

// ``cb`` once the story's layers are on the map (its data may still be on its way) and painted;
// after 1.5 s if the story's data is there (a window with nothing to draw, a frame that never
// paints), and after 10 s in any case.
window.dlAfterStoryPaint = function (cb) {
    var done = false;
    var fire = function () {
        if (!done) { done = true; cb(); }
    };
    var drawn = function () {
        if (window.dlStoryBusy && window.dlStoryBusy()) { return false; }
        if (window.dlLast) { return true; }
        var n = 0;
        var walk = function (layer) {
            if (layer.getLayers) { layer.getLayers().forEach(walk); } else { n++; }
        };
        (window.feature_group || []).forEach(function (g) { if (g._map) { walk(g); } });
        return n > 0;
    };
    var tick = function () {
        if (done) { return; }
        if (!drawn()) { requestAnimationFrame(tick); return; }
        requestAnimationFrame(function () { setTimeout(fire, 0); });
    };
    requestAnimationFrame(tick);
    // Not while the story's data is still on its way (a busy machine), up to 10 s.
    var waited = 0;
    var late = function () {
        waited += 500;
        if (waited < 10000 && window.dlStoryBusy && window.dlStoryBusy()) {
            setTimeout(late, 500);
        } else {
            fire();
        }
    };
    setTimeout(late, 1500);
};

// Asked by the first run's layers (geo/map/layers.py: paint_report): the page is told once the
// map has painted the story, once per frame.
window.dlReportPainted = function () {
    var S = window.Streamlit;
    if (window.dlPaintAsked || !S || !S.dlSendPainted) { return; }
    window.dlPaintAsked = true;
    window.dlAfterStoryPaint(function () { S.dlSendPainted(); });
};

window.dlInitMap = function (map, cfg) {
    window.dlHoldFirstReport(window.Streamlit);
    var PANES = {dlLand: 200, dlWater: 210, dlBorders: 220, dlCircles: 390, dlFronts: 400,
                 dlConvoyPath: 420, dlLabels: 450, dlConvoy: 650, dlSelected: 700};
    // Online tiles, when the reader switches them on, cover the offline land; where they fail
    // to load, it shows through.
    map.getPane('tilePane').style.zIndex = 230;
    Object.keys(PANES).forEach(function (name) {
        var pane = map.getPane(name) || map.createPane(name);
        pane.style.zIndex = PANES[name];
    });
    // Background layers and labels never take clicks: they would swallow the story's objects.
    ['dlLand', 'dlWater', 'dlBorders', 'dlLabels', 'dlCircles'].forEach(function (name) {
        map.getPane(name).style.pointerEvents = 'none';
    });

    // A click must not scroll the page: Leaflet focuses the map on mousedown, and when the map's
    // frame is partly off-screen the browser scrolls it into view between mousedown and mouseup,
    // so Leaflet sees a drag and drops the click.
    // The handler was bound when the map was made, so it is swapped, not just overwritten.
    var kb = map.keyboard;
    if (kb && kb._onMouseDown) {
        L.DomEvent.off(map.getContainer(), 'mousedown', kb._onMouseDown, kb);
        kb._onMouseDown = function () {
            if (!this._focused) { this._map.getContainer().focus({preventScroll: true}); }
        };
        L.DomEvent.on(map.getContainer(), 'mousedown', kb._onMouseDown, kb);
    }

    // The page sizes the map's frame to the screen (CSS in app.py); the map fills the frame.
    function fillFrame() {
        var el = map.getContainer(), h = window.innerHeight;
        if (h > 0 && Math.abs(el.clientHeight - h) > 1) {
            el.style.height = h + 'px';
            map.invalidateSize(false);
        }
    }
    window.addEventListener('resize', fillFrame);
    fillFrame();

    // Uncertainty circles say something only at a readable size: hidden when a few pixels
    // across (noise) or when wider than a marker's neighbourhood (around the enclave a dozen of
    // them overlap and grey it out); the selection's always stays.
    window.dlCircles = [];
    function circleSizes() {
        var limit = 36;
        window.dlCircles = window.dlCircles.filter(function (c) { return map.hasLayer(c); });
        window.dlCircles.forEach(function (c) {
            var px = c._radius || 0;
            var on = c.options.dlKeep || (px >= 6 && px <= limit);
            c.setStyle({opacity: on ? c.options.dlOpacity : 0,
                        fillOpacity: on ? c.options.dlFill : 0});
        });
    }
    window.dlCircleSizes = circleSizes;
    map.on('zoomend', circleSizes);

    var landStyle = {stroke: false, fillColor: '#f4f1ea', fillOpacity: 1, interactive: false};
    var tiers = [
        {file: 'world-low.geojson', min: 0, max: 4.99},
        {file: 'world.geojson', min: 5, max: 99},
    ];
    var data = {};
    function fetchJson(file) {
        if (!data[file] && cfg.files && cfg.files[file]) {
            // A published file carries its basemap inline: no request at all.
            data[file] = Promise.resolve(cfg.files[file]);
        }
        if (!data[file]) {
            data[file] = fetch(cfg.base + file).then(function (r) {
                if (!r.ok) { throw new Error(file + ': ' + r.status); }
                return r.json();
            });
        }
        return data[file];
    }
    tiers.forEach(function (tier) {
        // The low tier has no border lines: its land outlines draw coast and borders at once.
        var style = tier.min === 0
            ? L.extend({}, landStyle, {stroke: true, color: '#aaa59b', weight: 0.8}) : landStyle;
        tier.layer = L.layerGroup();
        tier.land = L.geoJSON(null, {pane: 'dlLand', interactive: false, style: style,
            filter: function (f) { return f.properties.k !== 'border'; }}).addTo(tier.layer);
        tier.borders = L.geoJSON(null, {pane: 'dlBorders', interactive: false,
            style: {color: '#9a958c', weight: 1.1, fill: false},
            filter: function (f) { return f.properties.k === 'border'; }}).addTo(tier.layer);
    });
    var water = L.geoJSON(null, {pane: 'dlWater', interactive: false, style: function (f) {
        return f.properties.kind === 'lake'
            ? {stroke: true, color: '#8fb3cc', weight: 0.6, fillColor: '#bcd3e4', fillOpacity: 1}
            : {color: '#8fb3cc', weight: 1.4, fill: false};
    }});

    function load(tier) {
        if (tier.loaded) { return; }
        tier.loaded = true;
        fetchJson(tier.file).then(function (gj) {
            tier.land.addData(gj);
            tier.borders.addData(gj);
            tier.ready = true;
            showTiers();
        }).catch(function (e) { console.warn('basemap', e); });
    }

    // The detailed tier (1.4 MB) waits for the story's first paint: the light one shows until
    // then, and the story is not held up by the detail's download and drawing (0.2 s of an open).
    var detailOk = false;
    window.dlAfterStoryPaint(function () { detailOk = true; showTiers(); });

    function showTiers() {
        var z = map.getZoom();
        var wanted = tiers.filter(function (tier) { return z >= tier.min && z <= tier.max; })[0];
        // The light tier too, so something is drawn at once at any zoom.
        load(tiers[0]);
        if (detailOk) { load(wanted); }
        // Until the wanted tier has arrived, the other one stays: never an empty sea.
        var shown = wanted.ready ? wanted
            : tiers.filter(function (tier) { return tier.ready; })[0] || wanted;
        tiers.forEach(function (tier) {
            if (tier === shown && !map.hasLayer(tier.layer)) { tier.layer.addTo(map); }
            if (tier !== shown && map.hasLayer(tier.layer)) { map.removeLayer(tier.layer); }
        });
        if (z >= 6 && !water.loaded) {
            water.loaded = true;
            fetchJson('water.geojson').then(function (gj) { water.addData(gj); })
                .catch(function (e) { console.warn('basemap', e); });
        }
        if (z >= 6 && !map.hasLayer(water)) { water.addTo(map); }
        if (z < 6 && map.hasLayer(water)) { map.removeLayer(water); }
    }

    // --- labels -----------------------------------------------------------------------------
    var baseLabels = [];
    fetchJson('labels.json').then(function (list) { baseLabels = list; relabel(); })
        .catch(function (e) { console.warn('labels', e); });
    var labelPane = map.getPane('dlLabels');

    function overlaps(a, b) {
        return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    }
    function free(box, taken) {
        for (var i = 0; i < taken.length; i++) { if (overlaps(box, taken[i])) { return false; } }
        return true;
    }
    // Where a label may sit around its point: right, left, above, below (story places);
    // centred (countries, rivers).
    var SPOTS = [[1, 0], [-1, 0], [0, -1], [0, 1]];

    // Label sizes by class and text, measured once: reading a new label's size forces the
    // page's layout, and doing that label by label cost ~45 ms on every window.
    var sizes = {};
    function sizeKey(item) { return item.t + '|' + item.n; }
    function measure(items) {
        var fresh = items.filter(function (item) { return !sizes[sizeKey(item)]; });
        if (!fresh.length) { return; }
        var els = fresh.map(function (item) {
            var el = L.DomUtil.create('div', 'dl-label dl-label-' + item.t, labelPane);
            el.textContent = item.n;
            return el;
        });
        els.forEach(function (el, i) {  // one layout for all of them
            sizes[sizeKey(fresh[i])] = [el.offsetWidth, el.offsetHeight];
        });
        els.forEach(L.DomUtil.remove);
    }
    function put(item, x, y, selected) {
        // The selection's name sits above the markers, so no cluster hides it.
        var el = L.DomUtil.create('div', 'dl-label dl-label-' + item.t,
                                  selected ? map.getPane('dlSelected') : labelPane);
        el.textContent = item.n;
        if (item.key) { el.setAttribute('data-label-for', item.key); }
        // A 2D move, not Leaflet's translate3d: a 3D transform made each label a layer of its
        // own for the compositor (80 layers after a redraw, 42 now; layerizing 6.3 ms a frame, 2.8 now).
        el.style.transform = 'translate(' + Math.round(x) + 'px,' + Math.round(y) + 'px)';
    }

    function place(item, taken, size) {
        var selected = item.t.indexOf('selected') >= 0;
        var wh = sizes[sizeKey(item)], w = wh[0], h = wh[1];
        var p = map.latLngToLayerPoint([item.p[1], item.p[0]]);
        var spots = item.t !== 'country' && item.t !== 'river' && item.t !== 'area'
            ? SPOTS : [[0, 0]];
        var gap = (item.r || 3) + 3;
        for (var i = 0; i < spots.length; i++) {
            var dx = spots[i][0], dy = spots[i][1];
            var x = dx > 0 ? p.x + gap : dx < 0 ? p.x - gap - w : p.x - w / 2;
            var y = dy > 0 ? p.y + gap : dy < 0 ? p.y - gap - h : p.y - h / 2;
            var box = {x: x, y: y, w: w, h: h};
            if (free(box, taken) && inside(box, size)) {
                taken.push(box);
                put(item, x, y, selected);
                return true;
            }
        }
        if (selected) {
            // The selection is always named, even over a neighbour.
            var x0 = p.x + gap, y0 = p.y - h / 2;
            taken.push({x: x0, y: y0, w: w, h: h});
            put(item, x0, y0, selected);
            return true;
        }
        return false;
    }
    function inside(box, size) {
        var tl = map.layerPointToContainerPoint([box.x, box.y]);
        return tl.x >= 0 && tl.y >= 0 && tl.x + box.w <= size.x && tl.y + box.h <= size.y;
    }

    function relabel() {
        labelPane.innerHTML = '';
        map.getPane('dlSelected').querySelectorAll('.dl-label').forEach(L.DomUtil.remove);
        var z = map.getZoom(), bounds = map.getBounds().pad(0.05), size = map.getSize();
        var taken = [];
        // The map's controls (zoom, scale, legend, date) are obstacles, and so are the story's
        // markers: no label may sit under one or cover one.
        var origin = map.getContainer().getBoundingClientRect();
        map.getContainer().querySelectorAll('.leaflet-control').forEach(function (el) {
            var r = el.getBoundingClientRect();
            var tl = map.containerPointToLayerPoint([r.left - origin.left, r.top - origin.top]);
            taken.push({x: tl.x - 4, y: tl.y - 4, w: r.width + 8, h: r.height + 8});
        });
        (window.dlStoryMarks || []).forEach(function (m) {
            var p = map.latLngToLayerPoint([m.p[1], m.p[0]]);
            taken.push({x: p.x - m.r, y: p.y - m.r, w: 2 * m.r, h: 2 * m.r});
        });
        var story = window.dlStoryLabels || [];
        var storyNames = {}, wanted = [];
        story.forEach(function (item) {
            storyNames[item.n.toLowerCase()] = true;
            if (bounds.contains([item.p[1], item.p[0]])) { wanted.push(item); }
        });
        // A city the story names itself (often spelled otherwise: Al Quşayr, al-Qusayr) is
        // labelled once, by the story.
        var storyPoints = story.map(function (item) {
            return map.latLngToLayerPoint([item.p[1], item.p[0]]);
        });
        baseLabels.forEach(function (item) {
            if (item.z > z || storyNames[item.n.toLowerCase()]) { return; }
            if (!bounds.contains([item.p[1], item.p[0]])) { return; }
            var p = map.latLngToLayerPoint([item.p[1], item.p[0]]);
            for (var i = 0; i < storyPoints.length; i++) {
                if (p.distanceTo(storyPoints[i]) < 14) { return; }
            }
            wanted.push(item);
        });
        // Story labels first, in their order, then the basemap's.
        measure(wanted);
        wanted.forEach(function (item) { place(item, taken, size); });
    }
    window.dlRelabel = relabel;

    // --- the date the map shows -------------------------------------------------------------
    var dateBox = L.control({position: 'topright'});
    dateBox.onAdd = function () {
        var div = L.DomUtil.create('div', 'dl-date');
        div.setAttribute('data-testid', 'map-date');
        return div;
    };
    dateBox.addTo(map);
    window.dlSetDate = function (text) { dateBox.getContainer().textContent = text; };

    // --- the dashboard's controls: the legend's frame and a full-screen button ------------------
    // Made here, not sent by the server: the component's message is re-sent on every rerun.
    function control(position, cls, build) {
        var ctl = L.control({position: position});
        ctl.onAdd = function () {
            var div = L.DomUtil.create('div', cls);
            L.DomEvent.disableClickPropagation(div);
            L.DomEvent.disableScrollPropagation(div);
            build(div);
            return div;
        };
        ctl.addTo(map);
    }
    if (cfg.controls) {
        control('bottomright', 'dl-legend', function (div) {
            div.innerHTML = '<details><summary><b>Legend</b></summary>' +
                            '<div class="dl-grid"></div></details>';
            // Open on a roomy map; folded on a small one, where it would hide the enclave.
            var size = map.getSize();
            div.firstChild.open = size.x >= 900 && size.y >= 560;
        });
        control('topleft', 'leaflet-bar dl-fs', function (div) {
            div.innerHTML = '<svg width="16" height="16" viewBox="0 0 16 16" ' +
                'style="vertical-align:-3px" fill="none" stroke="#333" stroke-width="2">' +
                '<path d="M1 6V1h5M10 1h5v5M15 10v5h-5M6 15H1v-5"/></svg>';
            div.title = 'Full screen';
            div.setAttribute('role', 'button');
            div.onclick = function () {
                var el = map.getContainer();
                if (document.fullscreenElement) { document.exitFullscreen(); }
                else if (el.requestFullscreen) { el.requestFullscreen(); }
            };
        });
    }

    // --- the legend lists only what is on the map -------------------------------------------
    // Labels are text; colours and symbols come from Dateline's own style table, never data.
    function legend(rows) {
        var grid = map.getContainer().querySelector('.dl-legend .dl-grid');
        if (!grid) { return; }
        grid.innerHTML = '';
        rows.forEach(function (r) {
            var span = L.DomUtil.create('span', '', grid);
            var i = L.DomUtil.create('i', r.shape === 'sq' ? 'sq' : '', span);
            i.style.background = r.colour;
            if (r.dashed) { i.style.border = '1px dashed #5a6b7b'; }
            if (r.symbol) { i.innerHTML = r.symbol; }
            span.appendChild(document.createTextNode(r.label));
        });
    }

    // --- the view follows the story -----------------------------------------------------
    // A change of window, filters or selection fits the map to what is shown, unless the reader
    // has moved the map since; what must stay visible (the selection, the convoy during Play)
    // is panned into view regardless.
    // A link with zoom and centre pins the view: it counts as the reader's own move.
    var ours = false, userMoved = !!cfg.pinned, lastFit, lastForce, lastDate, lastFocus;
    map.on('movestart', function () { if (!ours) { userMoved = true; } });
    map.on('moveend', function () {
        ours = false;
        if (userMoved) { remember(); }
    });
    // The reader's view goes into the page's address (zoom, centre), so a link reopens it; no
    // rerun is needed for that, and the app keeps these two parameters when it rewrites the URL.
    function remember() {
        try {
            var w = window.parent, u = new URL(w.location.href), c = map.getCenter();
            u.searchParams.set('zoom', String(map.getZoom()));
            u.searchParams.set('center', c.lat.toFixed(4) + ',' + c.lng.toFixed(4));
            w.history.replaceState(w.history.state, '', u.toString());
        } catch (e) { /* a published file has no parent page to write to */ }
    }
    function move(fn) { ours = true; fn(); }
    var FIT_PAD = 36;
    // A new window whose frame the view already shows, at most one zoom level wider than the
    // frame would be, keeps the view: a slider step does not pan the map each day.
    function framed(fit, maxZoom) {
        var b = L.latLngBounds(fit);
        var z = Math.min(map.getBoundsZoom(b, false, L.point(2 * FIT_PAD, 2 * FIT_PAD)), maxZoom);
        return map.getBounds().contains(b) && map.getZoom() >= z - 1;
    }
    window.dlShow = function (s) {
        window.dlStoryLabels = s.labels || [];
        window.dlStoryMarks = s.marks || [];
        window.dlSetDate(s.date || '');
        var dateMoved = s.date !== lastDate, focusKey = JSON.stringify(s.focus || null);
        var focusMoved = focusKey !== lastFocus;
        lastDate = s.date;
        lastFocus = focusKey;
        if (s.legend) { legend(s.legend); }
        var key = JSON.stringify(s.fit);
        var first = lastFit === undefined;
        // A chapter's own frame wins over everything, once per chapter opened.
        if (s.force && s.force.token !== lastForce) {
            lastForce = s.force.token;
            userMoved = false;
            lastFit = key;
            move(function () {
                map.fitBounds(s.force.bounds, {padding: [30, 30], maxZoom: 12, animate: !first});
            });
            circleSizes();
            relabel();
            return;
        }
        var maxZoom = s.max_zoom || 11;
        if (s.fit && key !== lastFit && !userMoved &&
                (first ? s.fit_first : !framed(s.fit, maxZoom))) {
            move(function () {
                map.fitBounds(s.fit, {padding: [FIT_PAD, FIT_PAD], maxZoom: maxZoom,
                                      animate: !first});
            });
        }
        lastFit = key;
        // On the first draw only the selection is brought into view: the convoy's position
        // on the story's last day must not pull the opening view away. Later the selection and
        // the convoy are followed when the date moves (Play, the slider); a new selection
        // alone brings only itself into view (a reader who picked a place in Lebanon was
        // taken 250 km east to where the convoy stood).
        var follow = first || !dateMoved ? (s.focus && (first || focusMoved) ? [s.focus] : [])
            : (s.keep || []);
        var inner = map.getBounds().pad(-0.08);
        if (follow.some(function (ll) { return !inner.contains(ll); })) {
            move(function () {
                if (follow.length === 1) {
                    map.panInside(follow[0], {padding: [60, 60], animate: !first});
                } else if (!userMoved && s.fit) {
                    // The window's own frame holds the convoy: panning from one of its groups
                    // to the other at the opening zoom showed neither the enclave nor the
                    // convoy whole, and moved the map on every step.
                    map.fitBounds(L.latLngBounds(s.fit).extend(follow),
                                  {padding: [FIT_PAD, FIT_PAD], maxZoom: maxZoom});
                } else {
                    // The reader's zoom is kept if the groups fit in it, else it widens.
                    map.fitBounds(follow, {padding: [60, 60], maxZoom: map.getZoom()});
                }
            });
        }
        circleSizes();
        relabel();
    };
    window.dlMap = map;

    // The country under a point on the land drawn now (null: sea, or not loaded yet).
    function inRing(ring, x, y) {
        var inside = false;
        for (var i = 0, j = ring.length - 1; i < ring.length; j = i++) {
            var xi = ring[i][0], yi = ring[i][1], xj = ring[j][0], yj = ring[j][1];
            if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) {
                inside = !inside;
            }
        }
        return inside;
    }
    window.dlLandAt = function (lat, lon) {
        var found = null;
        tiers.forEach(function (tier) {
            if (found || !map.hasLayer(tier.layer)) { return; }
            tier.land.eachLayer(function (l) {
                var g = l.feature.geometry;
                var polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
                polys.forEach(function (poly) {
                    if (!found && inRing(poly[0], lon, lat) &&
                        !poly.slice(1).some(function (hole) { return inRing(hole, lon, lat); })) {
                        found = l.feature.properties.name;
                    }
                });
            });
        });
        return found;
    };

    map.on('zoomstart', function () {
        labelPane.innerHTML = '';
        map.getPane('dlSelected').querySelectorAll('.dl-label').forEach(L.DomUtil.remove);
    });
    map.on('zoomend', showTiers);
    map.on('moveend', relabel);
    showTiers();
    relabel();
};
