// The story drawn in the browser: the whole story arrives once (geo/map/payload.py) and every
// date window, filter or selection is applied here, so a slider move sends a few bytes.
// The same code draws the dashboard's map and the published one-file map.
(function () {
    var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov',
                  'Dec'];

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
    // A click is reported the way st_folium reports one (the clicked object's tooltip text):
    // the component only hooks the layers that exist when it first runs the map's script, and
    // this story is drawn later, after its data arrives.
    function report(e) {
        var g = window.__GLOBAL_DATA__;
        if (window.dlOnSelect) {
            // A published page shows the details itself.
            var key = e.target.dlKey;
            if (key) { window.dlOnSelect(key); }
        }
        if (!g) { return; }
        var box = document.createElement('span');
        box.innerHTML = e.target.getTooltip().getContent();
        g.last_object_clicked = e.latlng;
        g.last_object_clicked_tooltip = box.textContent.trim();
        g.last_object_clicked_count = (g.last_object_clicked_count || 0) + 1;
        // The component sends its value on the map's own click event.
        window.dlMap.fire('click', {latlng: e.latlng});
    }
    function keyed(layer, key, tip) {
        layer.bindTooltip(tip, {sticky: false, direction: 'top', offset: [0, -6]});
        layer.on('click', report);
        window.dlByKey[key] = layer;
        layer.dlKey = key;
        layer.on('add', function () {
            var el = layer.getElement && layer.getElement();
            if (el) { el.setAttribute('data-key', key); }
        });
        return layer;
    }

    // Which events a window shows: the same rules as geo.story.timeline.filter_events.
    function windowEvents(data, s) {
        var cats = s.categories ? new Set(s.categories) : null;
        var actors = s.actors && s.actors.length ? new Set(s.actors) : null;
        return data.events.filter(function (e) {
            if (e[0] > s.end || (e[1] || e[0]) < s.start) { return false; }
            if (cats && !cats.has(data.categories[e[3]])) { return false; }
            if (actors && !e[4].some(function (a) { return actors.has(a); })) { return false; }
            return true;
        });
    }

    function clusterIcon(cluster) {
        var n = 0;
        cluster.getAllChildMarkers().forEach(function (m) { n += m.options.dlCount || 1; });
        return L.divIcon({className: 'dl-marker', iconSize: [30, 30], iconAnchor: [15, 15],
            html: '<div class="dl-pin dl-cluster" style="width:26px;height:26px;' +
                  'line-height:26px">' + n + '</div>'});
    }

    function Story(map, data) {
        this.map = map;
        this.data = data;
        // The days on which the convoy moves and the enclave changes, in order (ISO dates sort
        // as text).
        this.convoyDays = Object.keys(data.days).sort();
        this.frontDays = Object.keys(data.front_days || {}).sort();
        this.group = L.layerGroup().addTo(map);
        this.drawn = 0;       // draws so far: an animation stops when a newer draw starts
        this.before = null;   // the last draw's day and the convoy's positions by group
        this.trails = [];     // Play's last steps, newest first, drawn fading
    }

    // --- Play: the convoy moves along its route between two days' positions ---------------------
    var TRAIL_OPACITY = [0.95, 0.6, 0.35];
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
    // Moves ``marker`` along ``coords`` in ``ms``, drawing its trail; frames are requested from
    // the browser, so nothing reruns on the server while it moves.
    Story.prototype.animate = function (marker, coords, ms, trail) {
        var self = this, token = this.drawn, lens = [0];
        for (var i = 1; i < coords.length; i++) {
            var dy = coords[i][0] - coords[i - 1][0], dx = coords[i][1] - coords[i - 1][1];
            lens.push(lens[i - 1] + Math.sqrt(dx * dx + dy * dy));
        }
        var total = lens[lens.length - 1];
        if (!(total > 0) || !(ms > 0)) { return; }
        var t0 = null;
        window.dlTrack = [];
        window.dlAnimating = (window.dlAnimating || 0) + 1;
        function frame(t) {
            if (self.drawn !== token) { window.dlAnimating--; return; }
            if (t0 === null) { t0 = t; }
            var f = Math.min(1, (t - t0) / ms);
            f = f < 0.5 ? 2 * f * f : 1 - Math.pow(-2 * f + 2, 2) / 2;  // ease in and out
            var d = f * total, k = 1;
            while (k < lens.length - 1 && lens[k] < d) { k++; }
            var seg = lens[k] - lens[k - 1], u = seg > 0 ? (d - lens[k - 1]) / seg : 1;
            var a = coords[k - 1], b = coords[k];
            var pos = [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u];
            marker.setLatLng(pos);
            trail.setLatLngs(coords.slice(0, k).concat([pos]));
            window.dlTrack.push(pos);
            if (f < 1) { L.Util.requestAnimFrame(frame); } else { window.dlAnimating--; }
        }
        L.Util.requestAnimFrame(frame);
    };

    // The latest of the sorted ISO ``keys`` on or before ``iso``, or null.
    function latest(keys, iso) {
        var lo = 0, hi = keys.length;
        while (lo < hi) {
            var mid = (lo + hi) >> 1;
            if (keys[mid] <= iso) { lo = mid + 1; } else { hi = mid; }
        }
        return lo ? keys[lo - 1] : null;
    }
    // What is drawn on ``iso``: the convoy as of its latest move and the enclave as of its latest
    // change on or before it. The payload lists changes only, so it grows with the convoy and
    // the enclave, not with the span.
    Story.prototype.on = function (iso) {
        var c = latest(this.convoyDays, iso), f = latest(this.frontDays, iso);
        var out = Object.assign({}, c ? this.data.days[c] : {});
        if (f) { out.fronts = this.data.front_days[f]; }
        return out;
    };

    Story.prototype.draw = function (s) {
        // The window a "Download PNG" picture is captioned with (js/png.js).
        window.dlPngWindow = {start: s.start, end: s.end};
        var map = this.map, data = this.data, layers = new Set(s.layers);
        var group = this.group;
        group.clearLayers();
        window.dlByKey = {};
        window.dlCircles = [];
        var day = this.on(s.end);
        var evs = windowEvents(data, s);
        var points = [], labels = [], marks = [], keep = [];
        var placeHasEvents = {};

        // --- the enclave, bottom of the story's objects
        var sides = new Set();
        if (layers.has('fronts')) {
            (day.fronts || []).forEach(function (i) {
                var f = data.fronts[i];
                sides.add(f.side);
                var l = L.geoJSON({type: 'Feature', geometry: f.geometry},
                                  {pane: 'dlFronts', style: f.style});
                l.eachLayer(function (poly) { keyed(poly, 'front:' + f.id, f.tip); });
                l.addTo(group);
                var b = l.getBounds();
                points.push([b.getSouth(), b.getWest()], [b.getNorth(), b.getEast()]);
            });
        }

        // --- events grouped by place: colour of the latest, a number or a symbol
        var byPlace = new Map();
        evs.forEach(function (e) {
            if (!byPlace.has(e[2])) { byPlace.set(e[2], []); }
            byPlace.get(e[2]).push(e);
        });
        var cluster = null;
        if (layers.has('events')) {
            cluster = L.markerClusterGroup({maxClusterRadius: 26, showCoverageOnHover: false,
                spiderfyOnMaxZoom: true, disableClusteringAtZoom: 12,
                iconCreateFunction: clusterIcon});
            var order = [];
            byPlace.forEach(function (list, pi) { order.push([pi, list]); });
            order.forEach(function (item) {
                var p = data.places[item[0]], list = item[1], n = list.length;
                // The latest by start date; ties keep file order, as on the server.
                var latest = list.reduce(function (a, b) { return b[0] >= a[0] ? b : a; });
                var fam = data.families[data.cat_family[latest[3]]];
                var size = n > 1 ? 22 : 18;
                var first = list.reduce(function (a, b) { return b[0] < a[0] ? b : a; })[0];
                var last = list.reduce(function (a, b) {
                    var x = b[1] || b[0]; return x > a ? x : a;
                }, first);
                var key = 'place:' + p.id;
                var icon = L.divIcon({className: 'dl-marker', iconSize: [size, size],
                    iconAnchor: [size / 2, size / 2],
                    html: '<div class="dl-pin" style="background:' + fam.colour + ';width:' +
                          size + 'px;height:' + size + 'px;line-height:' + size + 'px">' +
                          (n > 1 ? n : fam.symbol) + '</div>'});
                var m = L.marker([p.lat, p.lon], {icon: icon, riseOnHover: true, dlCount: n});
                keyed(m, key, '<b>' + p.nh + '</b> · ' + esc(fmtSpan(first, last)) + ' · ' + n +
                      ' event' + (n > 1 ? 's' : '') + hiddenKey(key));
                cluster.addLayer(m);
                placeHasEvents[p.id] = n;
                labels.push({t: p.area ? 'area' : 'story', n: p.n, p: [p.lon, p.lat],
                             r: size / 2 + 1, key: key, area: p.area, count: n});
                marks.push({p: [p.lon, p.lat], r: size / 2 + 2});
                if (p.r < data.limits.region_m) { points.push([p.lat, p.lon]); }
            });
            labels.sort(function (a, b) {
                return (a.area - b.area) || (b.count - a.count);
            });
        }

        // --- places: a dot each, circles where the doubt is worth showing
        if (layers.has('places')) {
            data.places.forEach(function (p) {
                var selected = s.selected === 'place:' + p.id;
                if (p.circle && ((placeHasEvents[p.id] && !p.area && p.r < data.limits.region_m) ||
                                 selected)) {
                    var c = L.circle([p.lat, p.lon], {radius: p.r, pane: 'dlCircles',
                        interactive: false, color: '#5a6b7b', weight: selected ? 1.5 : 1,
                        opacity: selected ? 0.8 : 0.5, dashArray: '4 4', fill: p.fill,
                        fillOpacity: 0.07, dlOpacity: selected ? 0.8 : 0.5, dlFill: 0.07,
                        dlKeep: selected});
                    window.dlCircles.push(c);
                    c.addTo(group);
                }
                var dot = L.circleMarker([p.lat, p.lon], {radius: 3, color: '#37474f', weight: 1,
                    fillColor: '#fff', fillOpacity: 1});
                keyed(dot, 'place:' + p.id, p.tip).addTo(group);
            });
        }
        // Then the story's other places, quieter, and its regions last.
        var labelled = new Set(labels.map(function (l) { return l.key; }));
        ['place', 'area'].forEach(function (kind) {
            data.places.forEach(function (p) {
                if (labelled.has('place:' + p.id) || (kind === 'area') !== p.area) { return; }
                labels.push({t: kind, n: p.n, p: [p.lon, p.lat], r: 4, key: 'place:' + p.id});
            });
        });

        // --- the convoy: route, where it is now, every position so far
        // During Play (s.animate) the route fades, the last steps are drawn brighter behind the
        // moving marker, and each position passed is labelled with its date.
        var self = this, convoyShown = false, moves = [];
        var before = this.before, stepping = s.animate && before && before.end < s.end;
        if (!stepping) { this.trails = []; }
        var nowAt = {};
        if (layers.has('convoy') && day.convoy) {
            convoyShown = true;
            (day.paths || []).forEach(function (path) {
                L.polyline(path.coords, {pane: 'dlConvoyPath', color: data.colours.convoy,
                    weight: 4, opacity: s.animate ? 0.3 : 0.8,
                    dashArray: path.group === 'all' ? null : '8 6'})
                    .bindTooltip(esc(data.words.convoy) + ' ' + path.tip.charAt(0).toLowerCase() +
                                 path.tip.slice(1), {sticky: true})
                    .addTo(group);
            });
            this.trails.slice(0, TRAIL_OPACITY.length - 1).forEach(function (step, n) {
                step.forEach(function (coords) {
                    L.polyline(coords, {pane: 'dlConvoyPath', color: data.colours.convoy,
                        weight: 5, opacity: TRAIL_OPACITY[n + 1], interactive: false})
                        .addTo(group);
                });
            });
            if (s.animate) {
                // One label per spot: ten days stranded in one place read "3 – 12 Sep".
                var spots = [];
                day.convoy.forEach(function (i) {
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
                    labels.unshift({t: 'halt', n: fmtSpan(x.first, x.last).replace(/ \d{4}$/, ''),
                                    p: [x.p[1], x.p[0]], r: 9, key: 'halt:' + x.first});
                });
            }
            var now = new Set(day.now);
            day.convoy.forEach(function (i) {
                var c = data.convoy[i], isNow = now.has(i);
                if (isNow && c.r >= data.limits.large_m) {
                    var u = L.circle([c.lat, c.lon], {radius: c.r, pane: 'dlCircles',
                        interactive: false, color: data.colours.convoy, weight: 1, fill: true,
                        fillOpacity: 0.06, dlOpacity: 1, dlFill: 0.06});
                    window.dlCircles.push(u);
                    u.addTo(group);
                }
                var m = L.circleMarker([c.lat, c.lon], {pane: 'dlConvoy',
                    radius: isNow ? 9 : 5, color: isNow ? '#ffffff' : data.colours.convoy,
                    weight: isNow ? 3 : 2,
                    fillColor: c.halted ? data.colours.halted : data.colours.convoy,
                    fillOpacity: isNow ? 1 : 0.7});
                keyed(m, 'convoy:' + c.id, c.tip).addTo(group);
                if (isNow) {
                    points.push([c.lat, c.lon]);
                    marks.push({p: [c.lon, c.lat], r: 11});
                    keep.push([c.lat, c.lon]);
                    nowAt[c.g] = [c.lat, c.lon];
                    // A group split off keeps moving from where the whole convoy was.
                    var from = before && (before.now[c.g] || before.now.all);
                    if (stepping && from && !near(from, [c.lat, c.lon])) {
                        moves.push({marker: m, from: from, to: [c.lat, c.lon], g: c.g});
                    }
                }
            });
        }
        this.drawn++;
        this.before = {end: s.end, now: nowAt};
        var newTrails = [];
        moves.forEach(function (mv) {
            var path = (day.paths || []).filter(function (p) { return p.group === mv.g; })[0];
            var coords = path ? tail(path.coords, mv.from) : [mv.from, mv.to];
            if (!near(coords[coords.length - 1], mv.to)) { coords.push(mv.to); }
            var trail = L.polyline([mv.from], {pane: 'dlConvoyPath', color: data.colours.convoy,
                weight: 5, opacity: TRAIL_OPACITY[0], interactive: false}).addTo(group);
            mv.marker.setLatLng(mv.from);
            self.animate(mv.marker, coords, s.step_ms || 700, trail);
            newTrails.push(coords);
        });
        if (newTrails.length) { this.trails.unshift(newTrails); }
        if (cluster) { cluster.addTo(group); }

        // --- the selection: a ring, its name first, and always in view
        var focus = null, sel = s.selected || '';
        var kind = sel.split(':')[0], id = sel.slice(kind.length + 1);
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
        if (focus) {
            L.circleMarker(focus, {radius: 15, color: '#111', weight: 3, fill: false,
                                   pane: 'dlSelected', interactive: false}).addTo(group);
            keep.unshift(focus);
            labels.forEach(function (l) { if (l.key === sel) { l.t = 'story dl-label-selected'; } });
            labels.sort(function (a, b) { return (b.key === sel) - (a.key === sel); });
        }

        // --- the legend: only what is on the map, in the story's own words
        var legend = [], famSeen = new Set();
        if (layers.has('events')) {
            evs.forEach(function (e) { famSeen.add(data.cat_family[e[3]]); });
        }
        data.families.forEach(function (f, i) {
            if (famSeen.has(i)) { legend.push({colour: f.colour, symbol: f.symbol, label: f.label}); }
        });
        if (convoyShown) {
            legend.push({colour: data.colours.convoy, label: data.words.convoy + ' position'});
            legend.push({colour: data.colours.halted, label: data.words.convoy + ' halted'});
        }
        Object.keys(data.sides).forEach(function (side) {
            if (sides.has(side)) {
                legend.push({colour: data.sides[side].fillColor, shape: 'sq',
                             label: data.words.held + ', ' + data.sides[side].label});
            }
        });
        if (layers.has('places')) {
            legend.push({colour: '#eef2f5', dashed: true, label: 'place uncertainty'});
        }

        var fit = null;
        if (points.length) {
            var lats = points.map(function (p) { return p[0]; });
            var lons = points.map(function (p) { return p[1]; });
            fit = [[Math.min.apply(null, lats), Math.min.apply(null, lons)],
                   [Math.max.apply(null, lats), Math.max.apply(null, lons)]];
        }
        window.dlShow({labels: labels, marks: marks, date: 'As of ' + fmtDay(s.end), fit: fit,
                       fit_first: s.fit_first, keep: keep, focus: focus, legend: legend,
                       force: s.view ? {bounds: s.view, token: s.view_token} : null});
        return {events: evs.length, places: byPlace.size};
    };

    // The one entry point: draw the window ``s`` (start, end, categories, actors, layers,
    // selected) of the story at ``s.data`` (a URL, fetched once, or the payload itself).
    // ``s.follow`` names the page's date slider: its thumbs are read as they move.
    var current = null, loading = null, pending = null, drawnKey = null;
    window.dlDraws = [];  // where each draw came from ('server' or 'slider'), for the tests
    // What a draw depends on; fit_first only matters to the first draw.
    function stateKey(s) {
        var k = Object.assign({}, s);
        delete k.fit_first;
        return JSON.stringify(k);
    }
    function drawNow(s, from) {
        drawnKey = stateKey(s);
        window.dlDraws.push(from);
        window.dlLast = current.draw(s);
    }
    window.dlStory = function (s) {
        var map = window.dlMap;
        pending = s;
        window.dlServerState = s;
        follow(s.follow);
        function run(data) {
            if (!current || current.data !== data) {
                if (current) { current.group.remove(); }
                current = new Story(map, data);
                drawnKey = null;
            }
            // The slider's own move was drawn already: the rerun it caused changes nothing.
            if (stateKey(pending) !== drawnKey) { drawNow(pending, 'server'); }
        }
        if (typeof s.data === 'object') { run(s.data); return; }
        if (current && current.url === s.data) { run(current.data); return; }
        if (loading && loading.url === s.data) { return; }
        loading = {url: s.data};
        fetch(s.data).then(function (r) {
            if (!r.ok) { throw new Error(s.data + ': ' + r.status); }
            return r.json();
        }).then(function (data) {
            if (current) { current.group.remove(); }
            current = new Story(map, data);
            current.url = s.data;
            loading = null;
            drawNow(pending, 'server');
        }).catch(function (e) { console.warn('story', e); });
    };
    // Whether the story's data is still on its way (the first paint is reported after it).
    window.dlStoryBusy = function () { return Boolean(loading); };

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
        // Play's steps come from the server, which animates the convoy between them.
        if (!current || !pending || pending.animate || loading) { return; }
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
    window.dlStoryFormat = {day: fmtDay, span: fmtSpan};
})();
