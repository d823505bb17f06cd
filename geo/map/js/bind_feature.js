// Tooltip and popup of a GeoJSON feature from its properties (folium on_each_feature).
(function(feature, layer) {
    var p = feature.properties;
    if (p.tip) { layer.bindTooltip(p.tip, {sticky: false}); }
    if (p.popup) { layer.bindPopup(p.popup, {maxWidth: 360, maxHeight: 320}); }
})
