// A server-side grid cluster: its count, and a click zooms to its places.
(function(feature, latlng) {
    var p = feature.properties, s = p.size;
    var html = '<div class="dl-agg" data-key="' + p.key + '" style="width:' + s +
        'px;height:' + s + 'px;line-height:' + s + 'px;background:' + p.c +
        ';border-radius:50%;border:3px solid rgba(255,255,255,.85);color:#fff;' +
        'box-shadow:0 0 0 1px rgba(0,0,0,.4);font-weight:700;font-size:11px;' +
        'text-align:center;box-sizing:content-box;cursor:pointer">' + p.label + '</div>';
    var icon = L.divIcon({className: 'dl-marker', html: html, iconSize: [s + 6, s + 6],
                          iconAnchor: [s / 2 + 3, s / 2 + 3]});
    var m = L.marker(latlng, {icon: icon, riseOnHover: true});
    m.on('click', function(e) {
        e.target._map.fitBounds(p.bounds, {maxZoom: p.zoom_to, padding: [40, 40]});
    });
    return m;
})
