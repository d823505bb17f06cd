// A circle marker styled by the feature's properties (folium point_to_layer).
(function(feature, latlng) {
    return L.circleMarker(latlng, feature.properties.style);
})
