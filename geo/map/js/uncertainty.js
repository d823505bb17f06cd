// An uncertainty circle in metres: drawn under everything and never clickable (folium.Circle
// drops Leaflet's `interactive` and `pane` options, so these are GeoJSON points instead).
// basemap.js hides it at zooms where it is too small or too big to say anything.
(function(feature, latlng) {
    var s = feature.properties.style;
    var c = L.circle(latlng, L.extend({interactive: false, pane: 'dlCircles',
                                       dlOpacity: s.opacity === undefined ? 1 : s.opacity,
                                       dlFill: s.fillOpacity === undefined ? 0.2 : s.fillOpacity,
                                       dlKeep: !!s.keep}, s));
    if (window.dlCircles) { window.dlCircles.push(c); }
    return c;
})
