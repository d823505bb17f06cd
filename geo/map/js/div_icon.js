// An event marker: a numbered, coloured div icon (folium point_to_layer).
(function(feature, latlng) {
    var p = feature.properties;
    var icon = L.divIcon({className: 'dl-marker', html: p.icon,
                          iconSize: [p.size, p.size], iconAnchor: [p.size / 2, p.size / 2]});
    return L.marker(latlng, {icon: icon, riseOnHover: true, dlCount: p.count});
})
