// Every story on the map is drawn here, from one JSON payload. A story of up to a few thousand
// events arrives whole, once (geo/map/payload.py), and every date window, filter or selection
// is applied here, so a slider move sends a few bytes. A bigger story arrives as a window
// payload with each rerun (geo/map/window.py): its events counted per place, or merged into
// grid clusters, for the reader's view. Both are drawn by the same code, in the dashboard and
// in the published one-file map.
(function () {
    var DL = (window.Dateline = window.Dateline || {});
    // What the browser tests read: where each draw came from ('server' or 'slider') and the
    // convoy's animated track. Kept only on a page that asks for it before any script runs
    // (window.DatelineTesting, set by the tests' init script); a reader's page records nothing.
    var TRACE = window.DatelineTesting ?
        (DL.test = {draws: [], windows: [], track: [], animating: 0}) : null;
    function moved(pos, done) {
        if (!TRACE) { return; }
        if (pos) { TRACE.track.push(pos); }
        if (done) { TRACE.animating -= 1; }
    }
    var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov',
                  'Dec'];

    // --- pure helpers: no Leaflet, no page (Node's tests load them on their own) ---------------
    function parts(iso) { return iso.split('-').map(Number); }
    function fmtDay(iso) {
        var p = parts(iso);
        return p[2] + ' ' + MONTHS[p[1] - 1] + ' ' + p[0];
    }
    function fmtSpan(a, b) {
        if (a === b) { return fmtDay(a); }
        var pa = parts(a), pb = parts(b);
        if (pa[0] === pb[0]) { return pa[2] + ' ' + MONTHS[pa[1] - 1] + ' – ' + fmtDay(b); }
        return fmtDay(a) + ' – ' + fmtDay(b);
    }
    function esc(text) {
        return String(text).replace(/[&<>"']/g, function (c) {
            return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;'}[c];
        });
    }
    function hiddenKey(key) { return '<span class="dl-key" hidden>[' + key + ']</span>'; }

    // Whether event ``e`` passes the fatalities filter ``killed`` ([lowest, highest] or null):
    // an event with no reported figure (e[5] null) is not known to be in the range, so a
    // filter leaves it out (geo.story.timeline.filter_killed).
    function killedIn(e, killed) {
        if (!killed) { return true; }
        var k = e[5];
        return typeof k === 'number' && k >= killed[0] && k <= killed[1];
    }
    // Which events a window shows: the same rules as geo.story.timeline.filter_events. ``only``
    // (positions in data.events, or null) is what the server's country and text filters kept.
    function windowEvents(data, s) {
        var cats = s.categories ? new Set(s.categories) : null;
        var actors = s.actors && s.actors.length ? new Set(s.actors) : null;
        var only = s.only ? new Set(s.only) : null;
        return data.events.filter(function (e, n) {
            if (only && !only.has(n)) { return false; }
            if (e[0] > s.end || (e[1] || e[0]) < s.start) { return false; }
            if (cats && !cats.has(data.categories[e[3]])) { return false; }
            if (actors && !e[4].some(function (a) { return actors.has(a); })) { return false; }
            return killedIn(e, s.killed);
        });
    }

    // A window's events counted per place, in the window payload's shape: [place index, events,
    // first day, last day, category index of the latest], places in order of first appearance.
    function placeRows(evs) {
        var byPlace = new Map();
        evs.forEach(function (e) {
            var row = byPlace.get(e[2]);
            if (!row) {
                byPlace.set(e[2], [e[2], 1, e[0], e[1] || e[0], e[3], e[0]]);
                return;
            }
            row[1]++;
            if (e[0] < row[2]) { row[2] = e[0]; }
            if ((e[1] || e[0]) > row[3]) { row[3] = e[1] || e[0]; }
            // The latest by start date; ties keep file order, as on the server.
            if (e[0] >= row[5]) { row[4] = e[3]; row[5] = e[0]; }
        });
        return Array.from(byPlace.values(), function (r) { return r.slice(0, 5); });
    }

    function near(a, b) { return Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[1] - b[1]) < 1e-6; }
    // The stretch of ``coords`` from the vertex nearest ``from`` to its end (the new position).
    function tail(coords, from) {
        var best = 0, bestD = Infinity;
        coords.forEach(function (c, i) {
            var d = (c[0] - from[0]) * (c[0] - from[0]) + (c[1] - from[1]) * (c[1] - from[1]);
            if (d <= bestD) { best = i; bestD = d; }
        });
        var out = coords.slice(best);
        if (!near(out[0], from)) { out.unshift(from); }
        return out;
    }
    // Each vertex's distance from the start of ``coords``, in degrees (short routes only).
    function lengths(coords) {
        var lens = [0];
        for (var i = 1; i < coords.length; i++) {
            var dy = coords[i][0] - coords[i - 1][0], dx = coords[i][1] - coords[i - 1][1];
            lens.push(lens[i - 1] + Math.sqrt(dx * dx + dy * dy));
        }
        return lens;
    }
    // The point at fraction ``f`` (0..1, by length) of ``coords``, and the index of the vertex
    // after it; ``lens`` are ``lengths(coords)``, when known.
    function at(coords, f, lens) {
        lens = lens || lengths(coords);
        var total = lens[lens.length - 1];
        if (!(total > 0)) { return {pos: coords[0].slice(), k: 1}; }
        var d = Math.min(Math.max(f, 0), 1) * total, k = 1;
        while (k < lens.length - 1 && lens[k] < d) { k++; }
        var seg = lens[k] - lens[k - 1], u = seg > 0 ? (d - lens[k - 1]) / seg : 1;
        var a = coords[k - 1], b = coords[k];
        return {pos: [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u], k: k};
    }
    // The [lat, lon] at fraction ``f`` (0..1, by length) of the polyline ``coords``.
    function along(coords, f) { return at(coords, f).pos; }

    // The latest of the sorted ISO ``keys`` on or before ``iso``, or null.
    function latest(keys, iso) {
        var lo = 0, hi = keys.length;
        while (lo < hi) {
            var mid = (lo + hi) >> 1;
            if (keys[mid] <= iso) { lo = mid + 1; } else { hi = mid; }
        }
        return lo ? keys[lo - 1] : null;
    }

    // The bounds of [lat, lon] ``points``, or null.
    function bounds(points) {
        if (!points.length) { return null; }
        var lats = points.map(function (p) { return p[0]; });
        var lons = points.map(function (p) { return p[1]; });
        return [[Math.min.apply(null, lats), Math.min.apply(null, lons)],
                [Math.max.apply(null, lats), Math.max.apply(null, lons)]];
    }

    DL.story = {windowEvents: windowEvents, tail: tail, along: along};
    DL.format = {day: fmtDay, span: fmtSpan};
    if (typeof L === 'undefined') { return; }

    // --- one object on the map: tooltip, key, click -------------------------------------------
    // A click is reported the way st_folium reports one (the clicked object's tooltip text):
    // the component only hooks the layers that exist when it first runs the map's script, and
    // this story is drawn later, after its data arrives.
    function report(e) {
        var g = window.__GLOBAL_DATA__, target = tapTarget(e);
        if (DL.onSelect) {
            // A published page shows the details itself.
            var key = target.dlKey;
            if (key) { DL.onSelect(key); }
        }
        if (!g) { return; }
        var box = document.createElement('span');
        box.innerHTML = target.getTooltip().getContent();
        g.last_object_clicked = e.latlng;
        g.last_object_clicked_tooltip = box.textContent.trim();
        g.last_object_clicked_count = (g.last_object_clicked_count || 0) + 1;
        // The component sends its value on the map's own click event.
        DL.map.fire('click', {latlng: e.latlng});
    }
    // Where the reader's finger or pointer went down (client px), before the browser moved a
    // touch onto the nearest clickable thing (Chromium's touch adjustment): a tap in the
    // enclave beside a crossing's dot reached the dot.
    var downAt = null;
    function watchDown(map) {
        if (map.dlWatched) { return; }
        map.dlWatched = true;
        map.getContainer().addEventListener('pointerdown', function (ev) {
            downAt = {x: ev.clientX, y: ev.clientY, t: Date.now()};
        }, true);
    }
    // A marker's click that began inside an enclave polygon and not on the marker itself (more
    // than its radius + TAP_SLOP px away) selects the polygon.
    var TAP_SLOP = 3;
    function tapTarget(e) {
        var layer = e.target, map = DL.map;
        if (!layer.getLatLng || !map || !downAt || Date.now() - downAt.t > 1500) { return layer; }
        var rect = map.getContainer().getBoundingClientRect();
        var down = L.point(downAt.x - rect.left, downAt.y - rect.top);
        var icon = layer.options.icon, radius = icon ? icon.options.iconSize[0] / 2
            : layer.options.radius || 0;
        if (map.latLngToContainerPoint(layer.getLatLng()).distanceTo(down) <=
                radius + TAP_SLOP) { return layer; }
        var lp = map.containerPointToLayerPoint(down), found = layer;
        Object.keys(DL.byKey).forEach(function (key) {
            var poly = DL.byKey[key];
            if (key.indexOf('front:') === 0 && poly._containsPoint && poly._map &&
                    poly._containsPoint(lp)) { found = poly; }
        });
        return found;
    }
    function tagged(layer, key, tip) {
        layer.bindTooltip(new DL.FitTooltip({sticky: false, direction: 'top', offset: [0, -6]})
            .setContent(tip));
        // The map's objects by key, for the chapter player, the tests and readers' tools.
        DL.byKey[key] = layer;
        layer.dlKey = key;
        layer.on('add', function () {
            var el = layer.getElement && layer.getElement();
            if (el) { el.setAttribute('data-key', key); }
        });
        return layer;
    }
    function keyed(layer, key, tip) { return tagged(layer, key, tip).on('click', report); }

    // A round pin of ``inner`` px in an icon of ``size`` px; ``name`` (escaped text) is what a
    // screen reader says for the marker (its role=button takes its name from the pin).
    function pinIcon(size, inner, colour, text, extra, name) {
        return L.divIcon({className: 'dl-marker', iconSize: [size, size],
            iconAnchor: [size / 2, size / 2],
            html: '<div class="dl-pin' + (extra || '') + '" role="img" aria-label="' + name +
                  '" style="' +
                  (colour ? 'background:' + colour + ';' : '') + 'width:' + inner +
                  'px;height:' + inner + 'px;line-height:' + inner + 'px">' + text + '</div>'});
    }
    // A markercluster icon showing how many events (not markers) it holds; the keys of its
    // places ride on it, so a reader's tools and the tests can tell what it stands for.
    function clusterIcon(cluster) {
        var n = 0, keys = [];
        cluster.getAllChildMarkers().forEach(function (m) {
            n += m.options.dlCount || 1;
            keys.push(m.dlKey);
        });
        var icon = pinIcon(30, 26, null, n, ' dl-cluster',
                           DL.plural(n, 'event') + ' close together: list them');
        icon.options.html = icon.options.html.replace('<div ', '<div data-keys="' +
            esc(keys.join(' ')) + '" ');
        return icon;
    }
    // A click or tap on a cluster lists its places, each a button that selects it (as a click
    // on its marker would), and a button that zooms in to them.
    function clusterList(e) {
        var cluster = e.layer, map = cluster._map, box = L.DomUtil.create('div', 'dl-list');
        var kids = cluster.getAllChildMarkers().slice().sort(function (a, b) {
            return (b.options.dlCount || 1) - (a.options.dlCount || 1);
        });
        L.DomUtil.create('p', 'dl-list-title', box).textContent = DL.plural(kids.length, 'place') + ' here';
        kids.forEach(function (m) {
            var b = L.DomUtil.create('button', 'dl-list-item', box);
            b.type = 'button';
            b.setAttribute('data-key', m.dlKey);
            var n = m.options.dlCount || 1;
            b.textContent = m.options.dlName + ' · ' + DL.plural(n, 'event');
            L.DomEvent.on(b, 'click', function (ev) {
                L.DomEvent.stop(ev);
                map.closePopup();
                m.fire('click', {latlng: m.getLatLng()});
            });
        });
        var zoom = L.DomUtil.create('button', 'dl-list-zoom', box);
        zoom.type = 'button';
        zoom.textContent = 'Zoom in';
        L.DomEvent.on(zoom, 'click', function (ev) {
            L.DomEvent.stop(ev);
            map.closePopup();
            cluster.zoomToBounds({padding: [40, 40]});
        });
        L.DomEvent.disableClickPropagation(box);
        L.popup({className: 'dl-list-popup', maxWidth: 240, autoPanPadding: [10, 10]})
            .setLatLng(cluster.getLatLng()).setContent(box).openOn(map);
    }
    // A big window's grid cluster (geo/map/scale.py): its count; a click zooms to its places,
    // and the server sends what is there at the new zoom.
    // geo/map/scale.disc_radius_px mirrors this: the server merges discs that would overlap.
    function gridSize(n) { return Math.round(20 + 4 * Math.log10(n)); }
    function gridCluster(c) {
        var s = gridSize(c.n);
        var colour = c.n < 100 ? '#3182bd' : c.n < 1000 ? '#e6550d' : '#a50f15';
        var html = '<div class="dl-agg" data-key="' + esc(c.key) + '" style="width:' + s +
            'px;height:' + s + 'px;line-height:' + s + 'px;background:' + colour +
            ';border-radius:50%;border:3px solid rgba(255,255,255,.85);color:#fff;' +
            'box-shadow:0 0 0 1px rgba(0,0,0,.4);font-weight:700;font-size:11px;' +
            'text-align:center;box-sizing:content-box;cursor:pointer">' + esc(c.label) + '</div>';
        var m = L.marker([c.lat, c.lon], {riseOnHover: true, icon: L.divIcon({
            className: 'dl-marker', html: html, iconSize: [s + 6, s + 6],
            iconAnchor: [s / 2 + 3, s / 2 + 3]})});
        m.on('click', function () {
            m._map.fitBounds(c.bounds, {maxZoom: c.zoom_to, padding: [40, 40]});
        });
        return tagged(m, c.key, c.tip);
    }

    var TRAIL_OPACITY = [0.95, 0.6, 0.35];
    // During Play the view is framed no closer than this: the places around stay in sight
    // (a one-day window with one event was framed at zoom 11, a 5 km scale on one marker).
    var PLAY_MAX_ZOOM = 9;

    // --- the story layer ---------------------------------------------------------------------
    // One draw per window: ``draw(s)`` clears the layer and draws the window ``s`` (start, end,
    // categories, actors, layers, selected, ...) bottom to top, collecting the labels, marks and
    // frame that js/basemap.js places and fits (``DL.show``).
    var StoryLayer = L.Layer.extend({
        initialize: function (data) {
            this._group = L.layerGroup();
            this._drawn = 0;       // draws so far: an animation stops when a newer draw starts
            this._before = null;   // the last draw's day and the convoy's positions by group
            this._trails = [];     // Play's last steps, newest first, drawn fading
            this.setData(data);
        },

        // A new payload of the same story (a big story's next window) keeps Play's state.
        setData: function (data) {
            this.data = data;
            // The days on which the convoy moves and the enclave changes, in order (ISO dates
            // sort as text).
            this._convoyDays = Object.keys(data.days).sort();
            this._frontDays = Object.keys(data.front_days || {}).sort();
        },

        onAdd: function (map) {
            watchDown(map);
            this._group.addTo(map);
        },
        onRemove: function () { this._group.remove(); },

        // What is drawn on ``iso``: the convoy as of its latest move and the enclave as of its
        // latest change on or before it. The payload lists changes only, so it grows with the
        // convoy and the enclave, not with the span.
        dayOf: function (iso) {
            var c = latest(this._convoyDays, iso), f = latest(this._frontDays, iso);
            var out = Object.assign({}, c ? this.data.days[c] : {});
            if (f) { out.fronts = this.data.front_days[f]; }
            return out;
        },

        draw: function (s) {
            // The window a "Download PNG" picture is captioned with (js/png.js).
            DL.pngWindow = {start: s.start, end: s.end};
            this._group.clearLayers();
            DL.byKey = {};
            DL.circles = [];
            var ctx = {s: s, layers: new Set(s.layers), day: this.dayOf(s.end), points: [],
                       labels: [], marks: [], keep: [], hasEvents: {}, sides: new Set(),
                       convoyShown: false, focus: null};
            var counted = this._counted(s);
            if (ctx.layers.has('fronts')) { this._drawFronts(ctx); }
            var events = ctx.layers.has('events') ? this._drawEvents(ctx, counted.rows) : null;
            if (ctx.layers.has('places')) { this._drawPlaces(ctx); }
            this._labelOthers(ctx);
            this._drawConvoy(ctx);
            if (events) { events.addTo(this._group); }
            this._drawSelection(ctx);
            this._drawFound(ctx);
            DL.show(this._view(ctx, counted.cats));
            return {events: counted.events, places: counted.rows.length};
        },

        // The window's events per place, how many, and which categories: counted here from the
        // whole story, or as the server counted them for a big story's window.
        _counted: function (s) {
            var data = this.data;
            if (data.kind !== 'window') {
                var evs = windowEvents(data, s);
                return {rows: placeRows(evs), events: evs.length,
                        cats: new Set(evs.map(function (e) { return e[3]; }))};
            }
            var n = 0;
            data.summary.forEach(function (r) { n += r[1]; });
            data.clusters.forEach(function (c) { n += c.n; });
            return {rows: data.summary, events: n, cats: new Set(data.categories.keys())};
        },

        // --- the enclave, bottom of the story's objects
        _drawFronts: function (ctx) {
            var data = this.data, group = this._group;
            (ctx.day.fronts || []).forEach(function (i) {
                var f = data.fronts[i];
                ctx.sides.add(f.side);
                var l = L.geoJSON({type: 'Feature', geometry: f.geometry},
                                  {pane: 'dlFronts', style: f.style});
                l.eachLayer(function (poly) { keyed(poly, 'front:' + f.id, f.tip); });
                l.addTo(group);
                var b = l.getBounds();
                ctx.points.push([b.getSouth(), b.getWest()], [b.getNorth(), b.getEast()]);
            });
        },

        // --- events by place: colour of the latest, a number or a symbol; merged where they
        // touch, and a big window's grid clusters beside them
        _drawEvents: function (ctx, rows) {
            var data = this.data, labels = ctx.labels;
            // A window cut to the view must not frame the map on it: the view would chase
            // its own reruns.
            var frames = data.scope !== 'view';
            var cluster = L.markerClusterGroup({maxClusterRadius: 26, showCoverageOnHover: false,
                spiderfyOnMaxZoom: false, zoomToBoundsOnClick: false,
                disableClusteringAtZoom: 12, iconCreateFunction: clusterIcon});
            cluster.on('clusterclick', clusterList);
            rows.forEach(function (r) {
                var p = data.places[r[0]], n = r[1], key = 'place:' + p.id;
                var fam = data.families[data.cat_family[r[4]]];
                var size = n > 1 ? 22 : 18;
                var m = L.marker([p.lat, p.lon], {riseOnHover: true, dlCount: n, dlName: p.n,
                    icon: pinIcon(size, size, fam.colour, n > 1 ? n : fam.symbol, '',
                                  p.nh + ', ' + DL.plural(n, 'event'))});
                keyed(m, key, '<b>' + p.nh + '</b> · ' + esc(fmtSpan(r[2], r[3])) + ' · ' +
                      DL.plural(n, 'event') + hiddenKey(key));
                cluster.addLayer(m);
                ctx.hasEvents[p.id] = n;
                labels.push({t: p.area ? 'area' : 'story', n: p.n, p: [p.lon, p.lat],
                             r: size / 2 + 1, key: key, area: p.area, count: n, must: true});
                ctx.marks.push({p: [p.lon, p.lat], r: size / 2 + 2});
                if (frames && p.r < data.limits.region_m) { ctx.points.push([p.lat, p.lon]); }
            });
            labels.sort(function (a, b) { return (a.area - b.area) || (b.count - a.count); });
            var group = this._group;
            (data.clusters || []).forEach(function (c) {
                gridCluster(c).addTo(group);
                // A disc is a mark too: the locator inset hides rather than cover one.
                ctx.marks.push({p: [c.lon, c.lat], r: gridSize(c.n) / 2 + 3});
            });
            return cluster;
        },

        // --- places: a dot each, circles where the doubt is worth showing
        _drawPlaces: function (ctx) {
            var data = this.data, group = this._group, s = ctx.s;
            data.places.forEach(function (p) {
                var selected = s.selected === 'place:' + p.id;
                if (p.circle && ((ctx.hasEvents[p.id] && !p.area &&
                                  p.r < data.limits.region_m) || selected)) {
                    var c = L.circle([p.lat, p.lon], {radius: p.r, pane: 'dlCircles',
                        interactive: false, color: '#5a6b7b', weight: selected ? 1.5 : 1,
                        opacity: selected ? 0.8 : 0.5, dashArray: '4 4', fill: p.fill,
                        fillOpacity: 0.07, dlOpacity: selected ? 0.8 : 0.5, dlFill: 0.07,
                        dlKeep: selected});
                    DL.circles.push(c);
                    c.addTo(group);
                }
                var dot = L.circleMarker([p.lat, p.lon], {radius: 3, color: '#37474f', weight: 1,
                    fillColor: '#fff', fillOpacity: 1});
                keyed(dot, 'place:' + p.id, p.tip).addTo(group);
            });
        },

        // Then the story's other places, quieter, and its regions last.
        _labelOthers: function (ctx) {
            var labels = ctx.labels, places = this.data.places;
            var labelled = new Set(labels.map(function (l) { return l.key; }));
            ['place', 'area'].forEach(function (kind) {
                places.forEach(function (p) {
                    if (labelled.has('place:' + p.id) || (kind === 'area') !== p.area) { return; }
                    labels.push({t: kind, n: p.n, p: [p.lon, p.lat], r: 4, key: 'place:' + p.id});
                });
            });
        },

        // --- the convoy: route, where it is now, every position so far
        // During Play (s.animate) the route fades, the last steps are drawn brighter behind the
        // moving marker, and each position passed is labelled with its date.
        _drawConvoy: function (ctx) {
            var s = ctx.s, before = this._before;
            var stepping = s.animate && before && before.end < s.end;
            if (!stepping) { this._trails = []; }
            var nowAt = {}, moves = [];
            if (ctx.layers.has('convoy') && ctx.day.convoy) {
                ctx.convoyShown = true;
                this._drawRoutes(ctx);
                if (s.animate) { this._labelHalts(ctx); }
                moves = this._drawPositions(ctx, nowAt, stepping ? before : null);
            }
            this._drawn++;
            this._before = {end: s.end, now: nowAt};
            this._move(ctx, moves);
        },

        _drawRoutes: function (ctx) {
            var data = this.data, group = this._group, s = ctx.s;
            (ctx.day.paths || []).forEach(function (path) {
                L.polyline(path.coords, {pane: 'dlConvoyPath', color: data.colours.convoy,
                    weight: 4, opacity: s.animate ? 0.3 : 0.8,
                    dashArray: path.group === 'all' ? null : '8 6'})
                    .bindTooltip(esc(data.words.convoy) + ' ' + path.tip.charAt(0).toLowerCase() +
                                 path.tip.slice(1), {sticky: true})
                    .addTo(group);
            });
            this._trails.slice(0, TRAIL_OPACITY.length - 1).forEach(function (step, n) {
                step.forEach(function (coords) {
                    L.polyline(coords, {pane: 'dlConvoyPath', color: data.colours.convoy,
                        weight: 5, opacity: TRAIL_OPACITY[n + 1], interactive: false})
                        .addTo(group);
                });
            });
        },

        // One label per spot: ten days stranded in one place read "3 – 12 Sep".
        _labelHalts: function (ctx) {
            var data = this.data, spots = [];
            ctx.day.convoy.forEach(function (i) {
                var c = data.convoy[i], spot = spots.filter(function (x) {
                    return near(x.p, [c.lat, c.lon]);
                })[0];
                if (!spot) {
                    spot = {p: [c.lat, c.lon], first: c.day, last: c.day};
                    spots.push(spot);
                }
                if (c.day < spot.first) { spot.first = c.day; }
                if (c.day > spot.last) { spot.last = c.day; }
            });
            spots.forEach(function (x) {
                ctx.labels.unshift({t: 'halt', n: fmtSpan(x.first, x.last).replace(/ \d{4}$/, ''),
                                    p: [x.p[1], x.p[0]], r: 9, key: 'halt:' + x.first});
            });
        },

        // Every position so far; the current ones bigger, kept in view, and (when Play steps
        // from ``before``) returned as the moves to animate.
        _drawPositions: function (ctx, nowAt, before) {
            var data = this.data, group = this._group, moves = [], now = new Set(ctx.day.now);
            ctx.day.convoy.forEach(function (i) {
                var c = data.convoy[i], isNow = now.has(i);
                if (isNow && c.r >= data.limits.large_m) {
                    var u = L.circle([c.lat, c.lon], {radius: c.r, pane: 'dlCircles',
                        interactive: false, color: data.colours.convoy, weight: 1, fill: true,
                        fillOpacity: 0.06, dlOpacity: 1, dlFill: 0.06});
                    DL.circles.push(u);
                    u.addTo(group);
                }
                var m = L.circleMarker([c.lat, c.lon], {pane: 'dlConvoy',
                    radius: isNow ? 9 : 5, color: isNow ? '#ffffff' : data.colours.convoy,
                    weight: isNow ? 3 : 2,
                    fillColor: c.halted ? data.colours.halted : data.colours.convoy,
                    fillOpacity: isNow ? 1 : 0.7});
                keyed(m, 'convoy:' + c.id, c.tip).addTo(group);
                if (!isNow) { return; }
                ctx.points.push([c.lat, c.lon]);
                ctx.marks.push({p: [c.lon, c.lat], r: 11});
                ctx.keep.push([c.lat, c.lon]);
                nowAt[c.g] = [c.lat, c.lon];
                // A group split off keeps moving from where the whole convoy was.
                var from = before && (before.now[c.g] || before.now.all);
                if (from && !near(from, [c.lat, c.lon])) {
                    moves.push({marker: m, from: from, to: [c.lat, c.lon], g: c.g});
                }
            });
            return moves;
        },

        // Each move runs along its group's route from where it was to where it is now.
        _move: function (ctx, moves) {
            var self = this, data = this.data, s = ctx.s, steps = [];
            moves.forEach(function (mv) {
                var path = (ctx.day.paths || []).filter(function (p) {
                    return p.group === mv.g;
                })[0];
                var coords = path ? tail(path.coords, mv.from) : [mv.from, mv.to];
                if (!near(coords[coords.length - 1], mv.to)) { coords.push(mv.to); }
                var trail = L.polyline([mv.from], {pane: 'dlConvoyPath',
                    color: data.colours.convoy, weight: 5, opacity: TRAIL_OPACITY[0],
                    interactive: false}).addTo(self._group);
                mv.marker.setLatLng(mv.from);
                self.animate(mv.marker, coords, s.step_ms || 700, trail);
                steps.push(coords);
            });
            if (steps.length) { this._trails.unshift(steps); }
        },

        // Moves ``marker`` along ``coords`` in ``ms``, drawing its trail; frames are requested
        // from the browser, so nothing reruns on the server while it moves.
        animate: function (marker, coords, ms, trail) {
            var self = this, token = this._drawn, lens = lengths(coords);
            if (!(lens[lens.length - 1] > 0) || !(ms > 0)) { return; }
            var t0 = null;
            if (TRACE) { TRACE.track = []; TRACE.animating += 1; }
            function frame(t) {
                if (self._drawn !== token) { moved(null, true); return; }
                if (t0 === null) { t0 = t; }
                var f = Math.min(1, (t - t0) / ms);
                var eased = f < 0.5 ? 2 * f * f : 1 - Math.pow(-2 * f + 2, 2) / 2;
                var here = at(coords, eased, lens);
                marker.setLatLng(here.pos);
                trail.setLatLngs(coords.slice(0, here.k).concat([here.pos]));
                moved(here.pos, f >= 1);
                if (f < 1) { L.Util.requestAnimFrame(frame); }
            }
            L.Util.requestAnimFrame(frame);
        },

        // --- the selection: a ring, its name first, and always in view
        _drawSelection: function (ctx) {
            var data = this.data, group = this._group, sel = ctx.s.selected || '';
            var kind = sel.split(':')[0], id = sel.slice(kind.length + 1), focus = null;
            if (kind === 'place') {
                data.places.forEach(function (p) { if (p.id === id) { focus = [p.lat, p.lon]; } });
            } else if (kind === 'convoy') {
                data.convoy.forEach(function (c) { if (c.id === id) { focus = [c.lat, c.lon]; } });
            } else if (kind === 'front') {
                data.fronts.forEach(function (f) {
                    if (f.id !== id) { return; }
                    L.geoJSON({type: 'Feature', geometry: f.geometry}, {pane: 'dlSelected',
                        interactive: false, style: {color: '#111', weight: 3.5, fill: false}})
                        .addTo(group);
                });
            }
            if (!focus) { return; }
            L.circleMarker(focus, {radius: 15, color: '#111', weight: 3, fill: false,
                                   pane: 'dlSelected', interactive: false}).addTo(group);
            ctx.focus = focus;
            ctx.keep.unshift(focus);
            ctx.labels.forEach(function (l) {
                if (l.key === sel) { l.t = 'story dl-label-selected'; }
            });
            ctx.labels.sort(function (a, b) { return (b.key === sel) - (a.key === sel); });
        },

        // --- a place the reader searched for in the gazetteer (not the story's): a yellow
        // pin, named, brought into view; not clickable, as there is nothing to detail
        _drawFound: function (ctx) {
            var f = ctx.s.found;
            if (!f || !isFinite(f.lat) || !isFinite(f.lon)) { return; }
            var p = [f.lat, f.lon], tip = '<b>' + esc(f.name) + '</b> · gazetteer, not a place ' +
                'of this story';
            tagged(L.circleMarker(p, {radius: 8, color: '#111', weight: 2, fillColor: '#ffd54f',
                                      fillOpacity: 1, pane: 'dlSelected'}), 'found:place', tip)
                .addTo(this._group);
            ctx.labels.unshift({t: 'story dl-label-selected', n: String(f.name), p: [f.lon, f.lat],
                                r: 10, key: 'found:place'});
            ctx.marks.push({p: [f.lon, f.lat], r: 10});
            if (!ctx.focus) { ctx.focus = p; }
            ctx.keep.unshift(p);
        },

        // --- the legend: only what is on the map, in the story's own words
        _legend: function (ctx, cats) {
            var data = this.data, legend = [], famSeen = new Set();
            if (ctx.layers.has('events')) {
                cats.forEach(function (c) { famSeen.add(data.cat_family[c]); });
            }
            data.families.forEach(function (f, i) {
                if (famSeen.has(i)) {
                    legend.push({colour: f.colour, symbol: f.symbol, label: f.label});
                }
            });
            if (ctx.convoyShown) {
                legend.push({colour: data.colours.convoy, label: data.words.convoy + ' position'});
                legend.push({colour: data.colours.halted, label: data.words.convoy + ' halted'});
            }
            Object.keys(data.sides).forEach(function (side) {
                if (ctx.sides.has(side)) {
                    legend.push({colour: data.sides[side].fillColor, shape: 'sq',
                                 label: data.words.held + ', ' + data.sides[side].label});
                }
            });
            if (ctx.layers.has('places')) {
                legend.push({colour: '#eef2f5', dashed: true, label: 'place uncertainty'});
            }
            return legend;
        },

        // What js/basemap.js shows and frames: labels, the date, the legend, the frame.
        _view: function (ctx, cats) {
            var s = ctx.s;
            return {labels: ctx.labels, marks: ctx.marks, date: 'As of ' + fmtDay(s.end),
                    fit: bounds(ctx.points), fit_first: s.fit_first, keep: ctx.keep,
                    max_zoom: s.animate ? PLAY_MAX_ZOOM : null,
                    focus: ctx.focus, legend: this._legend(ctx, cats),
                    force: s.view ? {bounds: s.view, token: s.view_token} : null};
        }
    });
    DL.StoryLayer = StoryLayer;

    // The one entry point: draw the window ``s`` (start, end, categories, actors, layers,
    // selected) of the story at ``s.data`` (a URL, fetched once, or a payload: the whole story,
    // or a big story's window, sent anew with each rerun).
    // ``s.follow`` names the page's date slider: its thumbs are read as they move.
    var current = null, loading = null, pending = null, drawnKey = null;
    // What a draw depends on; fit_first only matters to the first draw, and a payload is the
    // story layer's own (a new one replaces or refreshes the layer).
    function stateKey(s) {
        var k = Object.assign({}, s);
        delete k.fit_first;
        if (typeof k.data === 'object') { delete k.data; }
        return JSON.stringify(k);
    }
    function drawNow(s, from) {
        drawnKey = stateKey(s);
        if (TRACE) { TRACE.draws.push(from); TRACE.windows.push([s.start, s.end, from]); }
        DL.last = current.draw(s);
    }
    function show(data, url) {
        if (current && data.kind === 'window' && current.data.kind === 'window' &&
                current.data.id === data.id) {
            current.setData(data);
        } else {
            if (current) { current.remove(); }
            current = new StoryLayer(data).addTo(DL.map);
            current.url = url;
        }
        drawnKey = null;
    }
    DL.draw = function (s) {
        pending = s;
        DL.serverState = s;
        follow(s.follow);
        if (typeof s.data === 'object') {
            if (!current || current.data !== s.data) { show(s.data, null); }
            // The slider's own move was drawn already: the rerun it caused changes nothing.
            if (stateKey(pending) !== drawnKey) { drawNow(pending, 'server'); }
            return;
        }
        if (current && current.url === s.data) {
            if (stateKey(pending) !== drawnKey) { drawNow(pending, 'server'); }
            return;
        }
        if (loading && loading.url === s.data) { return; }
        loading = {url: s.data};
        fetch(s.data).then(function (r) {
            if (!r.ok) { throw new Error(s.data + ': ' + r.status); }
            return r.json();
        }).then(function (data) {
            show(data, s.data);
            loading = null;
            drawNow(pending, 'server');
        }).catch(function (e) { console.warn('story', e); });
    };
    // Whether the story's data is still on its way (the first paint is reported after it).
    DL.busy = function () { return Boolean(loading); };

    // --- the page's date slider, followed as it moves ------------------------------------------
    // The map is drawn for the thumbs' window as soon as they move (while they are dragged,
    // too), not after the server's rerun: the rerun then only brings the URL and the details
    // up to date. Streamlit's slider keeps its value in microseconds since 1970 (UTC) on a
    // range input per thumb; the map's frame is served from the page's own origin.
    var follower = null;
    function isoDay(micros) {
        var d = new Date(micros / 1000);
        return isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
    }
    function slid(group) {
        // Play's steps come from the server, which animates the convoy between them; a big
        // story's window is worked out there too.
        if (!current || !pending || pending.animate || loading ||
                current.data.kind === 'window') { return; }
        var days = Array.prototype.map.call(group.querySelectorAll('input[type="range"]'),
            function (input) { return isoDay(Number(input.value)); });
        if (days.length !== 2 || !days[0] || !days[1] || days[0] > days[1]) { return; }
        var s = Object.assign({}, pending, {start: days[0], end: days[1]});
        if (stateKey(s) !== drawnKey) { drawNow(s, 'slider'); }
    }
    // The whole page is watched, not the slider's element: a rerun may replace that element.
    function follow(label) {
        var doc;
        try { doc = window.parent !== window && window.parent.document; } catch (e) { doc = null; }
        if (!label || !doc || follower) { return; }
        follower = {frame: null, group: null, keys: 0};
        function drawSoon() {
            follower.frame = null;
            var group = follower.group;
            follower.group = null;
            if (group) { slid(group); }
        }
        // A key press commits the slider's value on its release: the draw waits until the
        // page has sent that (a few ms), so the rerun starts before the map is redrawn.
        doc.addEventListener('keydown', function () { follower.keys = 1; }, true);
        // A key whose release the page never saw (the window lost focus) must not hold a drag.
        doc.addEventListener('pointerdown', function () { follower.keys = 0; }, true);
        doc.defaultView.addEventListener('keyup', function () {
            follower.keys = 0;
            if (follower.group && follower.frame === null) {
                follower.frame = setTimeout(drawSoon, 0);
            }
        });
        new MutationObserver(function (changes) {
            changes.forEach(function (c) {
                var group = c.target.closest && c.target.closest('[role="group"]');
                if (group && group.getAttribute('aria-label') === pending.follow &&
                        group.closest('[data-testid="stSlider"]')) { follower.group = group; }
            });
            // One draw per animation frame however many steps a drag makes in it.
            if (follower.group && follower.frame === null && !follower.keys) {
                follower.frame = L.Util.requestAnimFrame(drawSoon);
            }
        }).observe(doc.body, {attributes: true, subtree: true,
                              attributeFilter: ['aria-valuetext']});
    }
})();
