"""Dateline's library: stories, gazetteer, geocoders, timeline logic and map builders."""
