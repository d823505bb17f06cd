"""geopy geocoders: the offline gazetteer, and an offline-first chain with an online fallback."""

from __future__ import annotations

from geo.geocoders.chain import ChainResult, GeocoderChain
from geo.geocoders.offline import OfflineGazetteerGeocoder

__all__ = ("ChainResult", "GeocoderChain", "OfflineGazetteerGeocoder")
