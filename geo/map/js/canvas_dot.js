// A light dot on one shared canvas, for big windows (folium point_to_layer).
(function(feature, latlng) {
    var p = feature.properties;
    window.dlCanvas = window.dlCanvas || L.canvas({padding: 0.5});
    return L.circleMarker(latlng, {renderer: window.dlCanvas, radius: p.r, color: '#fff',
                                   weight: 1.5, fillColor: p.c, fillOpacity: 0.9});
})
