// A markercluster icon showing how many events (not markers) it holds.
(function(cluster) {
    var n = 0;
    cluster.getAllChildMarkers().forEach(function(m) { n += m.options.dlCount || 1; });
    return L.divIcon({className: 'dl-marker', iconSize: [30, 30], iconAnchor: [15, 15],
        html: '<div class="dl-pin dl-cluster" style="width:26px;height:26px;line-height:26px">'
              + n + '</div>'});
})
