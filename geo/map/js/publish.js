// The published one-file page (geo/map/publish.py): a date window, chapters and a details panel
// around the same map script as the dashboard (basemap.js, story.js). Data is shown as text.
(function () {
    var DL = (window.Dateline = window.Dateline || {});
    var P = DL.published, page = P.page, data = P.payload;
    var DAY = 86400000;
    function iso(n) { return new Date(Date.parse(page.start) + n * DAY).toISOString().slice(0, 10); }
    function index(day) { return Math.round((Date.parse(day) - Date.parse(page.start)) / DAY); }
    function el(tag, text, parent, cls) {
        var e = document.createElement(tag);
        if (text !== undefined && text !== null) { e.textContent = text; }
        if (cls) { e.className = cls; }
        if (parent) { parent.appendChild(e); }
        return e;
    }
    function link(text, url, parent) {
        if (!/^https?:\/\//.test(url || '')) { return el('span', text, parent); }
        var a = el('a', text, parent);
        a.href = url;
        a.rel = 'noopener noreferrer';
        a.target = '_blank';
        return a;
    }

    document.getElementById('dl-title').textContent = page.title;
    document.getElementById('dl-summary').textContent = page.summary;

    var view = page.view || {};
    var map = L.map('dl-map', {minZoom: 2, maxZoom: 14, zoomControl: true,
                               center: view.center || [0, 0], zoom: view.zoom || 4});
    L.control.scale().addTo(map);
    // Open on a screen with room for it, folded on a phone (it would hide the map).
    new DL.Legend().addTo(map);
    DL.initMap(map, {base: '', files: P.files, pinned: false, fill: false});
    DL.pngControl(map, page.png);

    var days = index(page.end);
    var from = document.getElementById('dl-from'), to = document.getElementById('dl-to');
    [from, to].forEach(function (input) { input.min = 0; input.max = days; input.step = 1; });
    from.value = 0;
    to.value = days;
    var state = {selected: null, chapter: null, opened: 0};

    function details(key) {
        var box = document.getElementById('dl-details');
        box.textContent = '';
        if (!key) {
            el('p', 'Click a marker, the ' + data.words.convoy + ' or the ' + data.words.enclave +
               ' to see what happened there.', box);
            return;
        }
        var kind = key.split(':')[0], id = key.slice(kind.length + 1);
        var start = iso(+from.value), end = iso(+to.value);
        if (kind === 'place') {
            var p = data.places.filter(function (x) { return x.id === id; })[0];
            if (!p) { return; }
            el('h3', p.n, box);
            var evs = (page.texts.events[id] || []).filter(function (e) {
                return e.d <= end && e.e >= start;
            }).reverse();
            el('p', DL.plural(evs.length, 'event') + ' in the window', box, 'src');
            evs.forEach(function (e) {
                var div = el('div', null, box);
                el('b', e.when + ' · ' + e.cat, div);
                el('p', e.summary, div);
                if (e.figures) { el('i', e.figures, div); }
                var src = el('p', 'Source: ', div, 'src');
                link(e.source, e.url, src);
                src.appendChild(document.createTextNode(' · ' + e.confidence));
            });
        } else if (kind === 'convoy') {
            var c = page.texts.convoy[id];
            if (!c) { return; }
            el('h3', data.words.convoy, box);
            el('p', c.status, box);
            el('p', c.note, box);
            el('p', 'Source: ' + c.source, box, 'src');
        } else if (kind === 'front') {
            var f = page.texts.fronts[id];
            if (!f) { return; }
            el('h3', data.words.enclave, box);
            el('p', f.note, box);
            el('p', 'Approximate outline. Source: ' + f.source, box, 'src');
        }
    }

    function draw() {
        if (+from.value > +to.value) { from.value = to.value; }
        DL.pngWindow = {start: iso(+from.value), end: iso(+to.value)};
        var chapter = page.chapters.filter(function (c) { return c.n === state.chapter; })[0];
        document.getElementById('dl-window').textContent =
            DL.format.span(iso(+from.value), iso(+to.value));
        DL.draw({data: data, start: iso(+from.value), end: iso(+to.value),
                        categories: null, actors: [],
                        layers: ['convoy', 'events', 'fronts', 'places'],
                        selected: state.selected, fit_first: true,
                        view: chapter ? chapter.view : null,
                        view_token: chapter ? chapter.n + '-' + state.opened : null});
        details(state.selected);
    }
    DL.onSelect = function (key) { state.selected = key; draw(); };
    [from, to].forEach(function (input) {
        input.addEventListener('input', function () { state.chapter = null; show(); draw(); });
    });

    // --- chapters
    var bar = document.getElementById('dl-chapters'), card = document.getElementById('dl-chapter');
    var prev, next, pick;
    function open(n) {
        var c = page.chapters.filter(function (x) { return x.n === n; })[0];
        if (!c) { return; }
        state.chapter = n;
        state.selected = c.select;
        state.opened += 1;
        from.value = index(c.start);
        to.value = index(c.end);
        show();
        draw();
    }
    function show() {
        if (!page.chapters.length) { return; }
        card.textContent = '';
        var c = page.chapters.filter(function (x) { return x.n === state.chapter; })[0];
        prev.disabled = !c || c.n <= 1;
        next.disabled = c && c.n >= page.chapters.length;
        pick.value = c ? String(c.n) : '';
        if (!c) { return; }
        el('h2', c.n + '. ' + c.title, el('summary', null, card));
        var body = el('div', null, card, 'dl-chapter-body');
        el('p', c.text, body);
        if (c.image) { figure(c.image, body); }
        el('p', 'Sources: ' + c.sources.map(function (s) {
            return (page.texts.sources[s] || {name: s}).name;
        }).join(', '), body, 'src');
    }
    // A chapter's picture, embedded in the file (the page may load nothing else); its caption
    // and credit as text.
    var DATA_IMAGE = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/;
    function figure(image, parent) {
        if (!DATA_IMAGE.test(image.src)) { return; }
        var fig = el('figure', null, parent, 'dl-figure');
        var img = el('img', null, fig);
        img.alt = image.caption;
        img.width = image.w;
        img.height = image.h;
        img.src = image.src;
        var cap = el('figcaption', image.caption + ' ', fig);
        el('span', 'Credit: ' + image.credit, cap, 'dl-credit');
    }
    if (page.chapters.length) {
        prev = el('button', '‹ Prev', bar);
        pick = el('select', null, bar);
        pick.setAttribute('aria-label', 'Chapter');
        next = el('button', 'Next ›', bar);
        el('option', 'The story in ' + page.chapters.length + ' chapters', pick).value = '';
        page.chapters.forEach(function (c) { el('option', c.n + '. ' + c.title, pick).value = c.n; });
        prev.onclick = function () { open((state.chapter || 1) - 1); };
        next.onclick = function () { open((state.chapter || 0) + 1); };
        pick.onchange = function () { if (pick.value) { open(+pick.value); } };
    }

    var list = document.getElementById('dl-sources');
    Object.keys(page.texts.sources).forEach(function (id) {
        var s = page.texts.sources[id];
        link(s.name, s.url, el('li', null, list));
    });

    if (page.chapter) { open(page.chapter); } else { show(); draw(); }
})();
