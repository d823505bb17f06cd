"""The map wing: the base map, the story as JSON for the map's script, static assets and the
map's JavaScript (``js/story.js`` draws every story)."""
