// The New story page's editing layer, drawn over the draft's story: a handle on every place row
// (drag it to move the place), the row being pinned ringed with its radius, and the candidates a
// place search found. What the editor does is sent back the way st_folium sends a click.
(function () {
    var DL = (window.Dateline = window.Dateline || {});
    function esc(text) {
        return String(text).replace(/[&<>"']/g, function (c) {
            return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;'}[c];
        });
    }

    // The component sends its value on the map's own click event; the count tells the page an
    // object was acted on (a drag or a candidate) rather than the bare map clicked.
    function send(action, latlng) {
        var g = window.__GLOBAL_DATA__;
        if (!g) { return; }
        g.last_object_clicked_tooltip = action;
        g.last_object_clicked_count = (g.last_object_clicked_count || 0) + 1;
        DL.map.fire('click', {latlng: latlng});
    }

    function handle(p, target) {
        var cls = 'dl-handle' + (p.keep ? '' : ' dl-handle-off') + (target ? ' dl-handle-on' : '');
        var size = target ? 18 : 12;
        var marker = L.marker([p.lat, p.lon], {
            draggable: true,
            autoPan: true,
            keyboard: true,
            title: p.n,
            pane: 'markerPane',
            zIndexOffset: target ? 1000 : 500,
            icon: L.divIcon({className: cls, iconSize: [size, size], html: ''}),
        });
        marker.bindTooltip(esc(p.n) + (p.keep ? '' : ' (not kept)'),
                           {direction: 'top', offset: [0, -8]});
        marker.on('dragend', function () { send('[move:' + p.k + ']', marker.getLatLng()); });
        marker.on('add', function () {
            var el = marker.getElement();
            if (el) { el.setAttribute('data-place', p.id); }
        });
        return marker;
    }

    function candidate(c) {
        var marker = L.marker([c.lat, c.lon], {
            pane: 'markerPane',
            zIndexOffset: 2000,
            icon: L.divIcon({className: 'dl-cand', iconSize: [22, 22], html: String(c.i + 1)}),
        });
        marker.bindTooltip(esc(c.label), {direction: 'top', offset: [0, -10]});
        marker.on('click', function () { send('[cand:' + c.i + ']', marker.getLatLng()); });
        marker.on('add', function () {
            var el = marker.getElement();
            if (el) { el.setAttribute('data-cand', String(c.i)); }
        });
        return marker;
    }

    var layer = null, framed = null;
    DL.edit = function (s) {
        var map = DL.map;
        if (!map) { return; }
        if (layer) { layer.remove(); }
        layer = L.layerGroup().addTo(map);
        var frame = [];
        s.places.forEach(function (p) {
            var target = p.k === s.target;
            if (target && p.r) {
                L.circle([p.lat, p.lon], {radius: p.r, color: '#c0392b', weight: 1.5,
                                          dashArray: '4 4', fillOpacity: 0.05,
                                          interactive: false}).addTo(layer);
            }
            handle(p, target).addTo(layer);
            if (p.keep) { frame.push([p.lat, p.lon]); }
        });
        s.candidates.forEach(function (c) {
            candidate(c).addTo(layer);
            frame.push([c.lat, c.lon]);
        });
        // Framed once per draft and once per search, not on every edit: a drag keeps the view.
        var token = s.frame_token;
        if (token !== framed && frame.length) {
            framed = token;
            map.fitBounds(L.latLngBounds(frame), {padding: [30, 30], maxZoom: 11});
        }
        DL.editorReady = true;
    };
})();
