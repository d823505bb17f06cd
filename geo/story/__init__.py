"""The story wing: load and validate a story, storage, timeline, details, export, URL state."""
