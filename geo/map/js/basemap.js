// The offline basemap and the map's furniture, set up once when the map is created.
// Land and borders come in two zoom tiers, rivers and lakes for the story's region, and labels
// (countries, cities, the story's places) placed by a greedy collision pass on every move.
// The files are static: the browser fetches and caches them, reruns never send them again.
// The pieces are Leaflet classes on the page's namespace (window.Dateline): the basemap and the
// labels are layers, the date box, the legend and the full-screen button controls, the framing
// a view; DL.initMap wires them to a map. Label placement is a pure function
// (Dateline.labels.place), so Node's tests load this file without Leaflet or a page.
(function () {
    var DL = (window.Dateline = window.Dateline || {});

    // A count and its noun, as geo/names.py plural writes it: '1 event', '2 events', '1,204
    // events'; ``many`` for a plural other than word + 's' ('summaries').
    DL.plural = function (n, word, many) {
        return n.toLocaleString('en-US') + ' ' + (n === 1 ? word : many || word + 's');
    };

    // --- label placement: boxes in, placements out -----------------------------------------------
    function overlaps(a, b) {
        return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    }
    function free(box, taken) {
        for (var i = 0; i < taken.length; i++) { if (overlaps(box, taken[i])) { return false; } }
        return true;
    }
    function inside(box, view) {
        return box.x >= view.x && box.y >= view.y &&
            box.x + box.w <= view.x + view.w && box.y + box.h <= view.y + view.h;
    }
    // Where a label may sit around its point: right, left, above, below (story places);
    // centred (countries, rivers, regions), unless a marker stands there (an event's area),
    // which its centred name would sit on.
    var AROUND = [[1, 0], [-1, 0], [0, -1], [0, 1]], CENTRED = [[0, 0]];
    function spots(item) {
        var kind = item.t;
        return !item.must && (kind === 'country' || kind === 'river' || kind === 'area')
            ? CENTRED : AROUND;
    }
    function isSelected(item) { return item.t.indexOf('selected') >= 0; }

    function spotAt(item, x, y, k) {
        var w = item.w, h = item.h, gap = (item.r || 3) + 3, dx = k[0], dy = k[1];
        return {x: dx > 0 ? x + gap : dx < 0 ? x - gap - w : x - w / 2,
                y: dy > 0 ? y + gap : dy < 0 ? y - gap - h : y - h / 2, w: w, h: h};
    }
    // The first free, on-screen box around the item's point or, failing that, around one of
    // its other points (``alt``: [[x, y], ...], e.g. a country's other visible parts).
    function firstFree(item, taken, view) {
        var points = [[item.x, item.y]].concat(item.alt || []), around = spots(item);
        for (var j = 0; j < points.length; j++) {
            for (var i = 0; i < around.length; i++) {
                var box = spotAt(item, points[j][0], points[j][1], around[i]);
                if (free(box, taken) && inside(box, view)) { return box; }
            }
        }
        return null;
    }

    // The box ``item`` takes: its first spot that is free and on screen; an event place's name
    // (``must``) may then cover a neighbouring marker, never a label or a control; the selection, which is
    // always named, to the right of its point even over a neighbour; otherwise null.
    function spotFor(item, taken, labelsOnly, view, over) {
        var box = firstFree(item, taken, view);
        if (!box && item.must && over) { box = firstFree(item, labelsOnly, view); }
        if (box) { return box; }
        return isSelected(item) ? spotAt(item, item.x, item.y, [1, 0]) : null;
    }

    // Greedy placement in the order given (the most important first). ``items``: {t: the label's
    // classes, x, y: its point, w, h: its size, r: the marker's radius there, alt: other points,
    // must: an event place's name}; ``obstacles``: boxes no label may cover; ``view``: the box
    // labels must stay inside; ``over``: event places' names may cover ``soft`` obstacles
    // (markers; never a control or a label), when nothing else is free. All in one pixel frame. Returns {item, x, y, selected} for each label that
    // found a place, in order.
    function place(items, obstacles, view, over) {
        var taken = obstacles.slice(), out = [];
        var labelsOnly = obstacles.filter(function (o) { return !o.soft; });
        items.forEach(function (item) {
            var box = spotFor(item, taken, labelsOnly, view, over);
            if (!box) { return; }
            taken.push(box);
            labelsOnly.push(box);
            out.push({item: item, x: box.x, y: box.y, selected: isSelected(item)});
        });
        return out;
    }

    // An event place whose name finds no room joins the nearest named event place within
    // GROUP_PX, whose label then names the group ("Arsal +2") and lists its keys; placement
    // runs again with the longer names. The last round lets a name left over cover a marker
    // (never a label). ``measure(text, item)`` gives a text's [w, h].
    var GROUP_PX = 90, ROUNDS = 4;
    function placeGrouped(items, obstacles, view, measure) {
        var members = new Map(items.map(function (it) { return [it, [it]]; }));
        var current = items, out = [];
        for (var round = 0; round <= ROUNDS; round++) {
            out = place(current, obstacles, view, round === ROUNDS);
            if (round === ROUNDS) { break; }
            var named = out.map(function (o) { return o.item.of || o.item; });
            var missed = items.filter(function (it) {
                return it.must && members.has(it) && named.indexOf(it) < 0;
            });
            if (!missed.length) { break; }
            // A name with no neighbour near enough looks farther before it may cover markers:
            // beside the map's controls and edges there is often no room at all.
            if (!joinNearest(missed, named, members, GROUP_PX) &&
                    !joinNearest(missed, named, members, 2 * GROUP_PX)) { round = ROUNDS - 1; }
            current = grouped(items, members, measure);
        }
        return out;
    }
    function joinNearest(missed, named, members, reach) {
        var joined = false;
        missed.forEach(function (m) {
            var best = null, bestD = reach;
            named.forEach(function (n) {
                var d = Math.hypot(n.x - m.x, n.y - m.y);
                if (n.must && n !== m && members.has(n) && d < bestD) { best = n; bestD = d; }
            });
            if (!best) { return; }
            members.set(best, members.get(best).concat(members.get(m)));
            members.delete(m);
            joined = true;
        });
        return joined;
    }
    // The items as labels: each group's host named "Host +k", with the keys it stands for.
    function grouped(items, members, measure) {
        return items.filter(function (it) { return members.has(it); }).map(function (it) {
            var group = members.get(it);
            if (group.length < 2) { return it; }
            var n = it.n + ' +' + (group.length - 1), wh = measure(n, it);
            return Object.assign({}, it, {n: n, w: wh[0], h: wh[1], of: it,
                keys: group.map(function (g) { return g.key; })});
        });
    }

    // Where a tooltip w x h goes for an object at (x, y), ``gap`` px away: above, below, right
    // or left of it, the first that fits in ``view``; when none fits, above it moved inside
    // (``moved``). Returns {dir, x, y, moved}: the tooltip's top-left corner.
    function tipSpot(x, y, w, h, view, gap) {
        var tries = [['top', x - w / 2, y - gap - h], ['bottom', x - w / 2, y + gap],
                     ['right', x + gap, y - h / 2], ['left', x - gap - w, y - h / 2]];
        for (var i = 0; i < tries.length; i++) {
            var t = tries[i];
            if (inside({x: t[1], y: t[2], w: w, h: h}, view)) {
                return {dir: t[0], x: t[1], y: t[2], moved: false};
            }
        }
        var clamp = function (v, lo, size) { return Math.max(lo, Math.min(v, lo + size)); };
        return {dir: 'top', x: clamp(tries[0][1], view.x, view.w - w),
                y: clamp(tries[0][2], view.y, view.h - h), moved: true};
    }

    // The points of a country's visible part for its name, best first: ``cells`` is a grid
    // (rows of booleans: the cell's centre is in the country); a cell scores by how far it is
    // from the country's edge and the grid's (in cells), ties by nearness to the part's middle.
    // Returns [[col, row], ...] of at most ``most`` cells.
    function anchorCells(cells, most) {
        var pts = [], sx = 0, sy = 0;
        cells.forEach(function (row, r) {
            row.forEach(function (on, c) { if (on) { pts.push([c, r]); sx += c; sy += r; } });
        });
        if (!pts.length) { return []; }
        var mx = sx / pts.length, my = sy / pts.length;
        var depth = function (c, r) {
            for (var d = 1; ; d++) {
                for (var i = -d; i <= d; i++) {
                    if (!on(r - d, c + i) || !on(r + d, c + i) || !on(r + i, c - d) ||
                            !on(r + i, c + d)) { return d; }
                }
            }
        };
        function on(r, c) { return r >= 0 && r < cells.length && c >= 0 && !!cells[r][c]; }
        var scored = pts.map(function (p) {
            return {p: p, d: depth(p[0], p[1]), m: Math.hypot(p[0] - mx, p[1] - my)};
        });
        scored.sort(function (a, b) { return (b.d - a.d) || (a.m - b.m); });
        return scored.slice(0, most).map(function (s) { return s.p; });
    }
    DL.labels = {place: place, placeGrouped: placeGrouped, overlaps: overlaps, tipSpot: tipSpot,
                 anchorCells: anchorCells};

    // --- the first paint ---------------------------------------------------------------------
    // streamlit_folium reports the map's view the moment the map is made, before its layers are
    // drawn; on a big story that report reruns the app, and the rerun's messages then compete
    // with the first drawing (0.2 s of a cold open). Whatever the map sends before its first
    // paint waits for it, and only the latest value goes, as each value carries the whole state.
    // A frame that never paints (a hidden tab) sends after half a second.
    DL.holdFirstReport = function (S) {
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

    // Whether the story's layers are on the map (its data may still be on its way).
    function storyDrawn() {
        if (DL.busy && DL.busy()) { return false; }
        if (DL.last) { return true; }
        var n = 0;
        var walk = function (layer) {
            if (layer.getLayers) { layer.getLayers().forEach(walk); } else { n++; }
        };
        (window.feature_group || []).forEach(function (g) { if (g._map) { walk(g); } });
        return n > 0;
    }

    // ``cb`` once the story's layers are on the map and painted; after 1.5 s if the story's data
    // is there (a window with nothing to draw, a frame that never paints), and after 10 s in
    // any case.
    function afterStoryPaint(cb) {
        var done = false;
        var fire = function () {
            if (!done) { done = true; cb(); }
        };
        var tick = function () {
            if (done) { return; }
            if (!storyDrawn()) { requestAnimationFrame(tick); return; }
            requestAnimationFrame(function () { setTimeout(fire, 0); });
        };
        requestAnimationFrame(tick);
        // Not while the story's data is still on its way (a busy machine), up to 10 s.
        var waited = 0;
        var late = function () {
            waited += 500;
            if (waited < 10000 && DL.busy && DL.busy()) {
                setTimeout(late, 500);
            } else {
                fire();
            }
        };
        setTimeout(late, 1500);
    }

    // Asked by the first run's layers (geo/map/layers.py: paint_report): the page is told once
    // the map has painted the story, once per frame.
    DL.reportPainted = function () {
        var S = window.Streamlit;
        if (DL.paintAsked || !S || !S.dlSendPainted) { return; }
        DL.paintAsked = true;
        afterStoryPaint(function () { S.dlSendPainted(); });
    };

    // Everything below draws: a page without Leaflet (Node's tests) stops here.
    if (typeof L === 'undefined') { return; }

    // --- the map's panes and frame -------------------------------------------------------------
    var PANES = {dlLand: 200, dlWater: 210, dlBorders: 220, dlCircles: 390, dlFronts: 400,
                 dlConvoyPath: 420, dlLabels: 450, dlConvoy: 650, dlSelected: 700};
    // Background layers and labels never take clicks: they would swallow the story's objects.
    var QUIET_PANES = ['dlLand', 'dlWater', 'dlBorders', 'dlLabels', 'dlCircles'];

    function makePanes(map) {
        // Online tiles, when the reader switches them on, cover the offline land; where they
        // fail to load, it shows through.
        map.getPane('tilePane').style.zIndex = 230;
        Object.keys(PANES).forEach(function (name) {
            var pane = map.getPane(name) || map.createPane(name);
            pane.style.zIndex = PANES[name];
        });
        QUIET_PANES.forEach(function (name) { map.getPane(name).style.pointerEvents = 'none'; });
    }

    // A click must not scroll the page: Leaflet focuses the map on mousedown, and when the map's
    // frame is partly off-screen the browser scrolls it into view between mousedown and mouseup,
    // so Leaflet sees a drag and drops the click.
    // The handler was bound when the map was made, so it is swapped, not just overwritten.
    function focusWithoutScroll(map) {
        var kb = map.keyboard;
        if (!kb || !kb._onMouseDown) { return; }
        L.DomEvent.off(map.getContainer(), 'mousedown', kb._onMouseDown, kb);
        kb._onMouseDown = function () {
            if (!this._focused) { this._map.getContainer().focus({preventScroll: true}); }
        };
        L.DomEvent.on(map.getContainer(), 'mousedown', kb._onMouseDown, kb);
    }

    // Enter or Space on a focused marker or button-like control (role=button: markers, the
    // full-screen box) acts as a click, as it does on a real button; Leaflet 1.9 only opens a
    // bound popup, and the map's markers have tooltips and click handlers instead.
    function pressWithKeys(map) {
        L.DomEvent.on(map.getContainer(), 'keydown', function (e) {
            var el = e.target;
            if ((e.key === 'Enter' || e.key === ' ') && el.getAttribute &&
                el.getAttribute('role') === 'button' && el.tagName !== 'BUTTON') {
                L.DomEvent.preventDefault(e);
                el.click();
            }
        });
    }

    // The page sizes the map's frame to the screen (CSS in app.py); the map fills the frame.
    function fillFrame(map) {
        var fill = function () {
            var el = map.getContainer(), h = window.innerHeight;
            if (h > 0 && Math.abs(el.clientHeight - h) > 1) {
                el.style.height = h + 'px';
                map.invalidateSize(false);
            }
        };
        window.addEventListener('resize', fill);
        fill();
    }

    // Uncertainty circles say something only at a readable size: hidden when a few pixels
    // across (noise) or when wider than a marker's neighbourhood (around the enclave a dozen of
    // them overlap and grey it out); the selection's always stays. The story's scripts list
    // theirs in DL.circles.
    var CIRCLE_PX = [6, 36];
    function sizeCircles(map) {
        DL.circles = DL.circles.filter(function (c) { return map.hasLayer(c); });
        DL.circles.forEach(function (c) {
            var px = c._radius || 0;
            var on = c.options.dlKeep || (px >= CIRCLE_PX[0] && px <= CIRCLE_PX[1]);
            c.setStyle({opacity: on ? c.options.dlOpacity : 0,
                        fillOpacity: on ? c.options.dlFill : 0});
        });
    }

    // --- the basemap's files -------------------------------------------------------------------
    // Each file is asked for once; a published file carries its basemap inline (``inline``,
    // by name): no request at all.
    DL.BasemapFiles = L.Class.extend({
        initialize: function (base, inline) {
            this._base = base;
            this._inline = inline || {};
            this._got = {};
        },
        get: function (file) {
            if (!this._got[file]) {
                this._got[file] = this._inline[file] ? Promise.resolve(this._inline[file])
                    : fetch(this._base + file).then(function (r) {
                        if (!r.ok) { throw new Error(file + ': ' + r.status); }
                        return r.json();
                    });
            }
            return this._got[file];
        },
    });

    // --- land, borders and water ---------------------------------------------------------------
    var LAND = {stroke: false, fillColor: '#f4f1ea', fillOpacity: 1, interactive: false};
    var TIERS = [
        {file: 'world-low.geojson', min: 0, max: 4.99},
        {file: 'world.geojson', min: 5, max: 99},
    ];
    var WATER_ZOOM = 6;

    function makeTier(spec) {
        // The low tier has no border lines: its land outlines draw coast and borders at once.
        var style = spec.min === 0
            ? L.extend({}, LAND, {stroke: true, color: '#aaa59b', weight: 0.8}) : LAND;
        var tier = L.extend({}, spec, {layer: L.layerGroup(), loaded: false, ready: false});
        tier.land = L.geoJSON(null, {pane: 'dlLand', interactive: false, style: style,
            filter: function (f) { return f.properties.k !== 'border'; }}).addTo(tier.layer);
        tier.borders = L.geoJSON(null, {pane: 'dlBorders', interactive: false,
            style: {color: '#9a958c', weight: 1.1, fill: false},
            filter: function (f) { return f.properties.k === 'border'; }}).addTo(tier.layer);
        return tier;
    }

    function waterStyle(f) {
        return f.properties.kind === 'lake'
            ? {stroke: true, color: '#8fb3cc', weight: 0.6, fillColor: '#bcd3e4', fillOpacity: 1}
            : {color: '#8fb3cc', weight: 1.4, fill: false};
    }

    // Whether (x, y) lies inside ``ring`` (even-odd rule).
    function inRing(ring, x, y) {
        var within = false;
        for (var i = 0, j = ring.length - 1; i < ring.length; j = i++) {
            var xi = ring[i][0], yi = ring[i][1], xj = ring[j][0], yj = ring[j][1];
            if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) {
                within = !within;
            }
        }
        return within;
    }
    function inPolygon(poly, x, y) {
        return inRing(poly[0], x, y) &&
            !poly.slice(1).some(function (hole) { return inRing(hole, x, y); });
    }

    // The land in the tier the zoom wants, the other tier until that one has arrived (never an
    // empty sea), and rivers and lakes from zoom 6.
    DL.Basemap = L.Layer.extend({
        initialize: function (files) {
            this._files = files;
            this._tiers = TIERS.map(makeTier);
            this._water = L.geoJSON(null, {pane: 'dlWater', interactive: false,
                                           style: waterStyle});
            // The detailed tier (1.4 MB) waits for allowDetail (the story's first paint): the
            // light one shows until then, and the story is not held up by the detail's download
            // and drawing (0.2 s of an open).
            this._detail = false;
        },
        onAdd: function (map) {
            map.on('zoomend', this._update, this);
            this._update();
        },
        onRemove: function (map) {
            map.off('zoomend', this._update, this);
            this._tiers.forEach(function (tier) { map.removeLayer(tier.layer); });
            map.removeLayer(this._water);
        },
        allowDetail: function () {
            this._detail = true;
            if (this._map) { this._update(); }
        },
        // The country under a point on the land drawn now (null: sea, or not loaded yet).
        landAt: function (lat, lon) {
            var found = null, map = this._map;
            this._tiers.forEach(function (tier) {
                if (found || !map || !map.hasLayer(tier.layer)) { return; }
                tier.land.eachLayer(function (l) {
                    var g = l.feature.geometry;
                    var polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
                    polys.forEach(function (poly) {
                        if (!found && inPolygon(poly, lon, lat)) {
                            found = l.feature.properties.name;
                        }
                    });
                });
            });
            return found;
        },
        _load: function (tier) {
            if (tier.loaded) { return; }
            tier.loaded = true;
            this._files.get(tier.file).then(L.bind(function (gj) {
                tier.land.addData(gj);
                tier.borders.addData(gj);
                tier.ready = true;
                if (this._map) { this._update(); }
            }, this)).catch(function (e) { console.warn('basemap', e); });
        },
        _update: function () {
            var map = this._map, z = map.getZoom(), tiers = this._tiers;
            var wanted = tiers.filter(function (t) { return z >= t.min && z <= t.max; })[0];
            // The light tier too, so something is drawn at once at any zoom.
            this._load(tiers[0]);
            if (this._detail) { this._load(wanted); }
            var shown = wanted.ready ? wanted
                : tiers.filter(function (t) { return t.ready; })[0] || wanted;
            tiers.forEach(function (tier) {
                if (tier === shown && !map.hasLayer(tier.layer)) { tier.layer.addTo(map); }
                if (tier !== shown && map.hasLayer(tier.layer)) { map.removeLayer(tier.layer); }
            });
            this._showWater(z >= WATER_ZOOM);
        },
        _showWater: function (on) {
            var map = this._map, water = this._water;
            if (on && !this._waterLoaded) {
                this._waterLoaded = true;
                this._files.get('water.geojson').then(function (gj) { water.addData(gj); })
                    .catch(function (e) { console.warn('basemap', e); });
            }
            if (on && !map.hasLayer(water)) { water.addTo(map); }
            if (!on && map.hasLayer(water)) { map.removeLayer(water); }
        },
    });

    // --- labels --------------------------------------------------------------------------------
    function labelAt(item) { return [item.p[1], item.p[0]]; }
    function sizeKey(item) { return item.t + '|' + item.n; }
    // Each country's outline by name, with its bounds: {name: {bounds, polys}}.
    function countryShapes(gj) {
        var out = {};
        gj.features.forEach(function (f) {
            var g = f.geometry, name = f.properties.name;
            if (!g || !name) { return; }
            var polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
            var shape = out[name] || (out[name] = {bounds: L.latLngBounds([]), polys: []});
            polys.forEach(function (poly) {
                shape.polys.push(poly);
                poly[0].forEach(function (c) { shape.bounds.extend([c[1], c[0]]); });
            });
        });
        return out;
    }
    DL.countryShapes = countryShapes;
    // A base label this close (px) to a story place is the same place, named by the story.
    var SAME_PLACE_PX = 14;

    // The basemap's labels (labels.json) and the story's (setStory), placed anew on every move:
    // the story's first, in their order, then the basemap's, none over another, over a control
    // or over a story marker.
    DL.Labels = L.Layer.extend({
        initialize: function (files) {
            this._files = files;
            this._base = [];
            this._story = [];
            this._marks = [];
            // Label sizes by class and text, measured once: reading a new label's size forces
            // the page's layout, and doing that label by label cost ~45 ms on every window.
            this._sizes = {};
        },
        onAdd: function (map) {
            this._files.get('labels.json').then(L.bind(function (list) {
                this._base = list;
                this.redraw();
            }, this)).catch(function (e) { console.warn('labels', e); });
            this._files.get('world-low.geojson').then(L.bind(function (gj) {
                this._shapes = countryShapes(gj);
                this.redraw();
            }, this)).catch(function (e) { console.warn('labels', e); });
            map.on('zoomstart', this._clear, this);
            map.on('moveend', this.redraw, this);
            this.redraw();
        },
        onRemove: function (map) {
            map.off('zoomstart', this._clear, this);
            map.off('moveend', this.redraw, this);
            this._clear();
        },
        // The story's labels ({t, n, p: [lon, lat], r, key}) and markers ({p, r}) of this draw.
        setStory: function (labels, marks) {
            this._story = labels;
            this._marks = marks;
            return this;
        },
        redraw: function () {
            if (!this._map) { return this; }
            this._clear();
            var self = this, map = this._map, sizes = this._sizes, wanted = this._wanted();
            this._measure(wanted);
            var anchors = this._countryAnchors(wanted);
            var items = wanted.map(function (label) {
                var p = map.latLngToLayerPoint(labelAt(label)), wh = sizes[sizeKey(label)];
                return {t: label.t, r: label.r, x: p.x, y: p.y, w: wh[0], h: wh[1], label: label,
                        key: label.key, n: label.n, must: !!label.must,
                        alt: label.t === 'country' ? anchors[label.n] : null};
            });
            var origin = map.containerPointToLayerPoint([0, 0]), size = map.getSize();
            var view = {x: origin.x, y: origin.y, w: size.x, h: size.y};
            var measure = function (text, item) {
                var probe = {t: item.t, n: text};
                self._measure([probe]);
                return sizes[sizeKey(probe)];
            };
            placeGrouped(items, this._obstacles(), view, measure).forEach(function (spot) {
                var it = spot.item;
                this._put(L.extend({}, it.label, {n: it.n, keys: it.keys}), spot.x, spot.y,
                          spot.selected);
            }, this);
            return this;
        },
        // Countries whose name point is off screen (or at a close zoom) are named in their
        // visible part: a grid over the view, tested against the light tier's outlines.
        _countryAnchors: function (wanted) {
            var map = this._map, out = {}, shapes = this._shapes;
            if (!shapes) { return out; }
            var size = map.getSize(), COLS = 12, ROWS = 10, inner = map.getBounds();
            var grid = [];
            for (var r = 0; r < ROWS; r++) {
                for (var c = 0; c < COLS; c++) {
                    var pt = L.point((c + 0.5) * size.x / COLS, (r + 0.5) * size.y / ROWS);
                    grid.push({c: c, r: r, ll: map.containerPointToLatLng(pt)});
                }
            }
            wanted.forEach(function (label) {
                var shape = label.t === 'country' && shapes[label.n];
                if (!shape || !inner.intersects(shape.bounds)) { return; }
                // Far out, a country's own point is where its name goes.
                if (map.getZoom() < 5 && inner.contains(labelAt(label))) { return; }
                var cells = [];
                for (var i = 0; i < ROWS; i++) { cells.push([]); }
                grid.forEach(function (g) {
                    cells[g.r][g.c] = shape.bounds.contains(g.ll) &&
                        shape.polys.some(function (poly) {
                            return inPolygon(poly, g.ll.lng, g.ll.lat);
                        });
                });
                out[label.n] = anchorCells(cells, 12).map(function (cr) {
                    var p = map.containerPointToLayerPoint(
                        [(cr[0] + 0.5) * size.x / COLS, (cr[1] + 0.5) * size.y / ROWS]);
                    return [p.x, p.y];
                });
            });
            return out;
        },
        _clear: function () {
            var map = this._map;
            map.getPane('dlLabels').innerHTML = '';
            map.getPane('dlSelected').querySelectorAll('.dl-label').forEach(L.DomUtil.remove);
        },
        // The map's controls (zoom, scale, legend, date) are obstacles, and so are the story's
        // markers: no label may sit under one or cover one.
        _obstacles: function () {
            var map = this._map, boxes = [];
            var origin = map.getContainer().getBoundingClientRect();
            map.getContainer().querySelectorAll('.leaflet-control').forEach(function (el) {
                var r = el.getBoundingClientRect();
                // A hidden control (the locator dodging a marker) leaves its room to labels.
                if (!r.width || el.style.visibility === 'hidden') { return; }
                var tl = map.containerPointToLayerPoint([r.left - origin.left, r.top - origin.top]);
                boxes.push({x: tl.x - 4, y: tl.y - 4, w: r.width + 8, h: r.height + 8});
            });
            this._marks.forEach(function (m) {
                var p = map.latLngToLayerPoint(labelAt(m));
                boxes.push({x: p.x - m.r, y: p.y - m.r, w: 2 * m.r, h: 2 * m.r, soft: true});
            });
            return boxes;
        },
        // The labels in view: the story's, then the basemap's at this zoom. A city the story
        // names itself (often spelled otherwise: Al Quşayr, al-Qusayr) is labelled once, by the
        // story.
        _wanted: function () {
            var map = this._map, z = map.getZoom(), bounds = map.getBounds().pad(0.05);
            var storyNames = {}, wanted = [];
            this._story.forEach(function (item) {
                storyNames[item.n.toLowerCase()] = true;
                if (bounds.contains(labelAt(item))) { wanted.push(item); }
            });
            var storyPoints = this._story.map(function (item) {
                return map.latLngToLayerPoint(labelAt(item));
            });
            var shapes = this._shapes || {};
            this._base.forEach(function (item) {
                if (item.z > z || storyNames[item.n.toLowerCase()]) { return; }
                // A country in view is named even when its name's point is not.
                var shape = item.t === 'country' && shapes[item.n];
                if (!bounds.contains(labelAt(item)) &&
                        !(shape && bounds.intersects(shape.bounds))) { return; }
                var p = map.latLngToLayerPoint(labelAt(item));
                var same = storyPoints.some(function (q) {
                    return p.distanceTo(q) < SAME_PLACE_PX;
                });
                if (!same) { wanted.push(item); }
            });
            return wanted;
        },
        _measure: function (items) {
            var sizes = this._sizes, pane = this._map.getPane('dlLabels');
            var fresh = items.filter(function (item) { return !sizes[sizeKey(item)]; });
            if (!fresh.length) { return; }
            var els = fresh.map(function (item) {
                var el = L.DomUtil.create('div', 'dl-label dl-label-' + item.t, pane);
                el.textContent = item.n;
                return el;
            });
            els.forEach(function (el, i) {  // one layout for all of them
                sizes[sizeKey(fresh[i])] = [el.offsetWidth, el.offsetHeight];
            });
            els.forEach(L.DomUtil.remove);
        },
        _put: function (item, x, y, selected) {
            // The selection's name sits above the markers, so no cluster hides it.
            var pane = this._map.getPane(selected ? 'dlSelected' : 'dlLabels');
            var el = L.DomUtil.create('div', 'dl-label dl-label-' + item.t, pane);
            el.textContent = item.n;
            var keys = item.keys || (item.key ? [item.key] : []);
            if (keys.length) { el.setAttribute('data-label-for', keys.join(' ')); }
            // A 2D move, not Leaflet's translate3d: a 3D transform made each label a layer of its
            // own for the compositor (80 layers after a redraw, 42 now; layerizing 6.3 ms a
            // frame, 2.8 now).
            el.style.transform = 'translate(' + Math.round(x) + 'px,' + Math.round(y) + 'px)';
        },
    });

    // --- controls ------------------------------------------------------------------------------
    // The dashboard's controls are made here, not sent by the server: the component's message is
    // re-sent on every rerun. A click or a scroll on one stays there.
    function panel(cls) {
        var div = L.DomUtil.create('div', cls);
        L.DomEvent.disableClickPropagation(div);
        L.DomEvent.disableScrollPropagation(div);
        return div;
    }

    // The date the map shows.
    DL.DateBox = L.Control.extend({
        options: {position: 'topright'},
        onAdd: function () {
            var div = L.DomUtil.create('div', 'dl-date');
            div.setAttribute('data-testid', 'map-date');
            // Read out when it changes (a slider move, Play), named for a screen reader.
            div.setAttribute('role', 'status');
            div.setAttribute('aria-label', 'Date shown on the map');
            return div;
        },
        setText: function (text) {
            this.getContainer().textContent = text;
            return this;
        },
    });

    // The legend lists only what is on the map: the rows of the map's ``dl:legend`` event (or of
    // setRows). Labels are text; colours and symbols come from Dateline's own style table, never
    // data. ``open``: unfolded at first; by default where there is room (a laptop's map, not a
    // phone's), as on a small map it would hide the enclave. A PNG always shows it (js/png.js).
    // 480 px high: on a 1280x720 screen the map (420 px, all of it on the first screen) would
    // lose its lower third, where the enclave's markers are, to an open legend.
    var LEGEND_OPEN = [480, 480];
    DL.Legend = L.Control.extend({
        options: {position: 'bottomright', open: null},
        onAdd: function (map) {
            var div = panel('dl-legend');
            div.innerHTML = '<details><summary aria-label="Legend: show or hide">' +
                            '<b>Legend</b></summary>' +
                            '<div class="dl-grid"></div></details>';
            var size = map.getSize(), open = this.options.open;
            div.firstChild.open = open === null ? size.x >= LEGEND_OPEN[0] &&
                size.y >= LEGEND_OPEN[1] : open;
            this._grid = div.querySelector('.dl-grid');
            map.on('dl:legend', this._onRows, this);
            return div;
        },
        onRemove: function (map) {
            map.off('dl:legend', this._onRows, this);
        },
        setRows: function (rows) {
            var grid = this._grid;
            grid.innerHTML = '';
            rows.forEach(function (r) {
                var span = L.DomUtil.create('span', '', grid);
                var i = L.DomUtil.create('i', r.shape === 'sq' ? 'sq' : '', span);
                i.style.background = r.colour;
                if (r.dashed) { i.style.border = '1px dashed #5a6b7b'; }
                if (r.symbol) { i.innerHTML = r.symbol; }
                span.appendChild(document.createTextNode(r.label));
            });
            return this;
        },
        _onRows: function (e) { this.setRows(e.rows); },
    });

    // --- the locator: where the view lies in its region ------------------------------------------
    // A small picture in a corner: the light tier's country outlines around the view (a region
    // 8 times its size, at least 14 degrees across) with the view's box; drawn anew on each move,
    // from the file the basemap loaded already. Hidden on a map too small to spare the room,
    // and while a story marker lies under it; it takes no clicks (map.css).
    var LOCATOR = {w: 132, h: 96, smallW: 96, smallH: 72, minMap: [300, 360], minSpan: 14};
    DL.Locator = L.Control.extend({
        options: {position: 'bottomleft'},
        initialize: function (files, options) {
            L.setOptions(this, options);
            this._files = files;
        },
        onAdd: function (map) {
            var div = panel('dl-locator');
            div.setAttribute('role', 'img');
            div.setAttribute('data-testid', 'map-locator');
            this._div = div;
            this._files.get('world-low.geojson').then(L.bind(function (gj) {
                this._shapes = DL.countryShapes(gj);
                this._draw();
            }, this)).catch(function (e) { console.warn('locator', e); });
            map.on('moveend resize dl:drawn', this._draw, this);
            return div;
        },
        onRemove: function (map) { map.off('moveend resize dl:drawn', this._draw, this); },
        // The story's markers ({p: [lon, lat], r}) of this draw, as the labels get them.
        setMarks: function (marks) {
            this._marks = marks || [];
            if (this._map) { this._draw(); }
            return this;
        },
        // Never over the story: hidden while a marker lies under it. Judged from the marks'
        // points, not the markers' elements: the cluster layer re-adds its elements after a
        // move, later than this runs, and a stale answer left the inset over Beirut.
        _dodge: function () {
            var map = this._map, div = this._div, r = div.getBoundingClientRect();
            var origin = map.getContainer().getBoundingClientRect();
            var box = {x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height};
            var under = box.w > 0 && (this._marks || []).some(function (m) {
                var p = map.latLngToContainerPoint([m.p[1], m.p[0]]);
                return DL.labels.overlaps(box, {x: p.x - m.r, y: p.y - m.r, w: 2 * m.r, h: 2 * m.r});
            });
            div.style.visibility = under ? 'hidden' : '';
        },
        _draw: function () {
            var map = this._map, size = map.getSize(), div = this._div;
            var hide = size.x < LOCATOR.minMap[0] || size.y < LOCATOR.minMap[1];
            div.style.display = hide ? 'none' : '';
            if (hide || !this._shapes) { return; }
            var small = size.x < 480, w = small ? LOCATOR.smallW : LOCATOR.w;
            var h = small ? LOCATOR.smallH : LOCATOR.h, view = map.getBounds();
            var frame = DL.locatorFrame(view, w, h, LOCATOR.minSpan);
            var shapes = this._shapes, paths = [], names = [];
            Object.keys(shapes).forEach(function (name) {
                var shape = shapes[name];
                if (!frame.bounds.intersects(shape.bounds)) { return; }
                if (view.intersects(shape.bounds)) { names.push(name); }
                shape.polys.forEach(function (poly) { paths.push(frame.path(poly[0])); });
            });
            var box = frame.box(view);
            div.innerHTML = '<svg width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + ' ' +
                h + '" aria-hidden="true"><rect width="100%" height="100%" fill="#dbe7f0"/>' +
                '<path d="' + paths.join('') + '" fill="#f4f1ea" stroke="#9a958c" ' +
                'stroke-width="0.6"/><rect class="dl-locator-box" x="' + box.x + '" y="' +
                box.y + '" width="' + box.w + '" height="' + box.h + '" fill="rgba(192,57,43,' +
                '.15)" stroke="#c0392b" stroke-width="1.5"/></svg>';
            div.setAttribute('aria-label', 'Locator: the map shows ' +
                (names.length ? names.sort().join(', ') : 'open sea') + ', boxed in red');
            this._dodge();
        },
    });
    // The locator's projection: the region around ``view`` (w x h px; equirectangular, lon
    // scaled by the cosine of the middle latitude), a path for a ring, a box for bounds.
    DL.locatorFrame = function (view, w, h, minSpan) {
        var c = view.getCenter(), k = Math.cos(c.lat * Math.PI / 180);
        var spanX = Math.max((view.getEast() - view.getWest()) * 8, minSpan);
        var scale = w / spanX, spanY = h / scale * k;
        var x0 = c.lng - spanX / 2, y0 = c.lat + spanY / 2;
        var px = function (lon, lat) {
            return [(lon - x0) * scale, (y0 - lat) * scale / k];
        };
        return {
            bounds: L.latLngBounds([y0 - spanY, x0], [y0, x0 + spanX]),
            path: function (ring) {
                return ring.map(function (p, i) {
                    var q = px(p[0], p[1]);
                    return (i ? 'L' : 'M') + q[0].toFixed(1) + ' ' + q[1].toFixed(1);
                }).join('') + 'Z';
            },
            // The view's box, at least 4 px across so a close view still shows.
            box: function (b) {
                var nw = px(b.getWest(), b.getNorth()), se = px(b.getEast(), b.getSouth());
                var bw = Math.max(se[0] - nw[0], 4), bh = Math.max(se[1] - nw[1], 4);
                var cx = (nw[0] + se[0]) / 2, cy = (nw[1] + se[1]) / 2;
                return {x: +(cx - bw / 2).toFixed(1), y: +(cy - bh / 2).toFixed(1),
                        w: +bw.toFixed(1), h: +bh.toFixed(1)};
            },
        };
    };

    // --- tooltips that stay on the map ---------------------------------------------------------
    // A tooltip goes above its object, or below, right or left, whichever fits in the map;
    // long text wraps at a width the map can hold (map.css); when nothing fits it is moved
    // inside, without its arrow.
    var TIP_GAP = 8, TIP_MARGIN = 4;
    DL.FitTooltip = L.Tooltip.extend({
        _setPosition: function (pos) {
            var map = this._map, el = this._container, size = map.getSize();
            el.style.maxWidth = Math.max(Math.min(280, size.x - 2 * TIP_MARGIN), 80) + 'px';
            var at = map.layerPointToContainerPoint(pos).add(L.point(this.options.offset));
            var view = {x: TIP_MARGIN, y: TIP_MARGIN, w: size.x - 2 * TIP_MARGIN,
                        h: size.y - 2 * TIP_MARGIN};
            var spot = DL.labels.tipSpot(at.x, at.y, el.offsetWidth, el.offsetHeight, view,
                                         TIP_GAP);
            ['top', 'bottom', 'left', 'right'].forEach(function (d) {
                L.DomUtil.removeClass(el, 'leaflet-tooltip-' + d);
            });
            L.DomUtil.addClass(el, 'leaflet-tooltip-' + spot.dir);
            el.classList.toggle('dl-tip-moved', spot.moved);
            L.DomUtil.setPosition(el, map.containerPointToLayerPoint([spot.x, spot.y]));
        },
    });

    var FULL_SCREEN_ICON = '<svg width="16" height="16" viewBox="0 0 16 16" ' +
        'style="vertical-align:-3px" fill="none" stroke="#333" stroke-width="2">' +
        '<path d="M1 6V1h5M10 1h5v5M15 10v5h-5M6 15H1v-5"/></svg>';

    DL.FullScreen = L.Control.extend({
        options: {position: 'topleft'},
        onAdd: function (map) {
            var div = panel('leaflet-bar dl-fs');
            div.innerHTML = FULL_SCREEN_ICON;
            div.title = 'Full screen';
            div.setAttribute('role', 'button');
            div.setAttribute('aria-label', 'Full screen');
            div.tabIndex = 0;
            div.onclick = function () {
                var el = map.getContainer();
                if (document.fullscreenElement) { document.exitFullscreen(); }
                else if (el.requestFullscreen) { el.requestFullscreen(); }
            };
            return div;
        },
    });

    // --- the details' cue ----------------------------------------------------------------------
    // Where the page's details panel (``target``, in the page around the map's frame) is not
    // beside the map but under it (a phone, where Streamlit stacks the columns), a tap on a
    // marker changed it out of sight: a bar over the map's lower edge then names the selection
    // and takes the reader down to it. Beside the map (a laptop) it stays hidden.
    DL.DetailsCue = L.Control.extend({
        options: {position: 'bottomleft', target: '.st-key-dl_details'},
        onAdd: function () {
            var div = panel('dl-cue');
            div.setAttribute('role', 'button');
            div.setAttribute('data-testid', 'map-cue');
            div.style.display = 'none';
            L.DomEvent.on(div, 'click', this._go, this);
            return div;
        },
        _target: function () {
            try { return window.parent.document.querySelector(this.options.target); }
            catch (e) { return null; }
        },
        // Whether the panel starts under the map's frame.
        _below: function (el) {
            var frame = window.frameElement;
            return Boolean(frame) &&
                el.getBoundingClientRect().top >= frame.getBoundingClientRect().bottom - 1;
        },
        // A selection (``focus``, named ``name``) shows the cue when the panel is under the map
        // (the first run has no panel yet: a later draw looks again); once used, it stays hidden
        // until another selection.
        update: function (focus, name) {
            var key = JSON.stringify(focus || null), div = this.getContainer();
            if (key !== this._key) { this._used = false; }
            this._key = key;
            div.textContent = '\u2193 ' + (name ? name + ': details below' : 'Details below');
            this._tries = 0;
            this._check();
        },
        // The panel comes with the page's second run, which may not redraw the map: looked
        // for again a few times a second, for up to 10 s.
        _check: function () {
            clearTimeout(this._timer);
            var focus = JSON.parse(this._key), el = focus && !this._used && this._target();
            this.getContainer().style.display = el && this._below(el) ? '' : 'none';
            if (focus && !this._used && !el && this._tries++ < 40) {
                this._timer = setTimeout(L.bind(this._check, this), 250);
            }
        },
        _go: function () {
            var el = this._target();
            this._used = true;
            this.getContainer().style.display = 'none';
            if (el) { el.scrollIntoView({behavior: 'smooth', block: 'start'}); }
        },
    });

    function selectedName(labels) {
        var found = (labels || []).filter(function (item) {
            return item.t && item.t.indexOf('selected') >= 0;
        })[0];
        return found ? found.n : null;
    }

    // --- the view follows the story ------------------------------------------------------------
    // A change of window, filters or selection fits the map to what is shown, unless the reader
    // has moved the map since; what must stay visible (the selection, the convoy during Play)
    // is panned into view regardless.
    // A link with zoom and centre pins the view (``pinned``): it counts as the reader's own move.
    var FIT_PAD = 36;
    DL.View = L.Class.extend({
        initialize: function (map, parts, pinned) {
            this._map = map;
            this._labels = parts.labels;
            this._date = parts.date;
            this._cue = parts.cue;
            this._locator = parts.locator;
            this._ours = false;
            this._userMoved = !!pinned;
            map.on('movestart', function () { if (!this._ours) { this._userMoved = true; } }, this);
            map.on('moveend', function () {
                this._ours = false;
                if (this._userMoved) { this._remember(); }
            }, this);
        },
        // One draw of the story (js/story.js): labels, markers, date, legend rows, what to frame.
        show: function (s) {
            this._labels.setStory(s.labels || [], s.marks || []);
            this._date.setText(s.date || '');
            if (s.legend) { this._map.fire('dl:legend', {rows: s.legend}); }
            this._frame(s);
            sizeCircles(this._map);
            // The locator first: whether it dodges a marker decides the labels' room.
            if (this._locator) { this._locator.setMarks(s.marks); }
            this._labels.redraw();
            if (this._cue) { this._cue.update(s.focus, selectedName(s.labels)); }
            this._map.fire('dl:drawn');
        },
        _frame: function (s) {
            var dateMoved = s.date !== this._lastDate, focusKey = JSON.stringify(s.focus || null);
            var focusMoved = focusKey !== this._lastFocus;
            this._lastDate = s.date;
            this._lastFocus = focusKey;
            var key = JSON.stringify(s.fit), first = this._lastFit === undefined;
            var maxZoom = s.max_zoom || 11, forced = this._forced(s);
            if (forced) {
                // The chapter's window is the one framed: a held draw of another window is not,
                // so the server's draw that leaves the chapter is framed.
                if (forced === 'new') {
                    this._lastFit = key;
                    var chapterPad = this._fitPad(12, !first);
                    this._move(function (map) { map.fitBounds(s.force.bounds, chapterPad); });
                } else if (focusMoved && s.focus) {
                    this._follow([s.focus], null, first, maxZoom);  // a place picked meanwhile
                }
                return;
            }
            this._cap(s.max_zoom);
            if (s.fit && key !== this._lastFit && !this._userMoved &&
                    (first ? s.fit_first : !this._framed(s.fit, maxZoom))) {
                var pad = this._fitPad(maxZoom, !first);
                this._move(function (map) { map.fitBounds(s.fit, pad); });
            }
            this._lastFit = key;
            this._follow(this._kept(s, first, dateMoved, focusMoved), s.fit, first, maxZoom);
        },
        // A chapter's own frame wins over everything while the chapter is open: it is taken once
        // per chapter opened ('new'), and held ('held') by the draws that follow with the same
        // chapter, whatever their window. The page's rerun that opens a chapter can show the
        // slider's old window for a moment, and the map drew it: fitting that window framed
        // chapter 1 on the whole story (its markers piled up) and chapter 7 without the convoy.
        // A move of the slider that leaves the chapter is framed once the server has closed it.
        _forced: function (s) {
            if (!s.force) { return null; }
            if (s.force.token === this._lastForce) { return 'held'; }
            this._lastForce = s.force.token;
            this._userMoved = false;
            return 'new';
        },
        // Play's cap (``max_zoom``): a view closer than it when Play starts widens to it, once;
        // the reader may zoom in again while it plays.
        _cap: function (maxZoom) {
            var map = this._map, was = this._capped;
            this._capped = Boolean(maxZoom);
            if (!maxZoom || was || map.getZoom() <= maxZoom) { return; }
            this._move(function () { map.setZoom(maxZoom, {animate: false}); });
        },
        // What must be in view after this draw. On the first draw only the selection: the
        // convoy's position on the story's last day must not pull the opening view away. Later
        // the selection and the convoy are followed when the date moves (Play, the slider); a
        // new selection alone brings only itself into view (a reader who picked a place in
        // Lebanon was taken 250 km east to where the convoy stood).
        _kept: function (s, first, dateMoved, focusMoved) {
            if (first || !dateMoved) { return s.focus && (first || focusMoved) ? [s.focus] : []; }
            return s.keep || [];
        },
        // A frame's padding: clear of the controls in the map's bottom corners (the locator
        // inset and scale, the legend when open), at most a third of the map's height, so the
        // framed markers do not sit under the legend.
        _fitPad: function (maxZoom, animate) {
            var map = this._map, under = 0;
            map.getContainer().querySelectorAll('.leaflet-bottom').forEach(function (corner) {
                under = Math.max(under, corner.offsetHeight);
            });
            under = Math.min(under, map.getSize().y / 3);
            return {paddingTopLeft: [FIT_PAD, FIT_PAD],
                    paddingBottomRight: [FIT_PAD, Math.max(FIT_PAD, under)],
                    maxZoom: maxZoom, animate: animate};
        },
        _follow: function (follow, fit, first, maxZoom) {
            var inner = this._map.getBounds().pad(-0.08), userMoved = this._userMoved;
            if (!follow.some(function (ll) { return !inner.contains(ll); })) { return; }
            var pad = this._fitPad(maxZoom, true);
            this._move(function (map) {
                if (follow.length === 1) {
                    map.panInside(follow[0], {padding: [60, 60], animate: !first});
                } else if (!userMoved && fit) {
                    // The window's own frame holds the convoy: panning from one of its groups
                    // to the other at the opening zoom showed neither the enclave nor the
                    // convoy whole, and moved the map on every step.
                    map.fitBounds(L.latLngBounds(fit).extend(follow), pad);
                } else {
                    // The reader's zoom is kept if the groups fit in it, else it widens.
                    map.fitBounds(follow, {padding: [60, 60], maxZoom: map.getZoom()});
                }
            });
        },
        // A new window whose frame the view already shows, at most one zoom level wider than
        // the frame would be, keeps the view: a slider step does not pan the map each day.
        _framed: function (fit, maxZoom) {
            var map = this._map, b = L.latLngBounds(fit);
            var z = Math.min(map.getBoundsZoom(b, false, L.point(2 * FIT_PAD, 2 * FIT_PAD)),
                             maxZoom);
            return map.getBounds().contains(b) && map.getZoom() >= z - 1;
        },
        _move: function (fn) {
            this._ours = true;
            fn(this._map);
        },
        // The reader's view goes into the page's address (zoom, centre), so a link reopens it;
        // no rerun is needed for that, and the app keeps these two parameters when it rewrites
        // the URL.
        _remember: function () {
            try {
                var w = window.parent, u = new URL(w.location.href), c = this._map.getCenter();
                u.searchParams.set('zoom', String(this._map.getZoom()));
                u.searchParams.set('center', c.lat.toFixed(4) + ',' + c.lng.toFixed(4));
                w.history.replaceState(w.history.state, '', u.toString());
            } catch (e) { /* a published file has no parent page to write to */ }
        },
    });

    // --- wiring --------------------------------------------------------------------------------
    // ``cfg``: base (the basemap files' URL), files (inline basemap files, by name), pinned (the
    // view came with the link), controls (the dashboard's legend and full-screen button), fill
    // (false: the page sizes the map itself, as the published file does; else it fills the frame).
    DL.initMap = function (map, cfg) {
        DL.holdFirstReport(window.Streamlit);
        makePanes(map);
        focusWithoutScroll(map);
        pressWithKeys(map);
        if (cfg.fill !== false) { fillFrame(map); }
        DL.circles = [];
        map.on('zoomend', function () { sizeCircles(map); });
        var files = new DL.BasemapFiles(cfg.base, cfg.files);
        var labels = new DL.Labels(files);
        var land = new DL.Basemap(files);
        afterStoryPaint(function () { land.allowDetail(); });
        var date = new DL.DateBox().addTo(map), cue = null;
        if (cfg.controls) {
            new DL.Legend().addTo(map);
            new DL.FullScreen().addTo(map);
            cue = new DL.DetailsCue().addTo(map);
        }
        var locator = new DL.Locator(files).addTo(map);
        var view = new DL.View(map, {labels: labels, date: date, cue: cue, locator: locator},
                               cfg.pinned);
        DL.show = L.bind(view.show, view);
        DL.map = map;
        DL.landAt = L.bind(land.landAt, land);
        labels.addTo(map);
        land.addTo(map);
    };
})();
