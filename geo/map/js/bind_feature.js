// Tooltip and data-key of a GeoJSON feature from its properties (folium on_each_feature).
// No popup: a click selects, and the page's details panel shows what was clicked.
(function(feature, layer) {
    var p = feature.properties;
    if (p.tip) { layer.bindTooltip(p.tip, {sticky: false, direction: 'top', offset: [0, -6]}); }
    if (p.key) {
        // The map's objects by key, for the chapter player, the tests and readers' tools.
        window.dlByKey = window.dlByKey || {};
        window.dlByKey[p.key] = layer;
        layer.on('add', function() {
            var el = layer.getElement && layer.getElement();
            if (el) { el.setAttribute('data-key', p.key); }
        });
    }
})
