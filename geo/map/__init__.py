"""The map wing: folium layers, the basemap, static assets and the map's JavaScript."""
