"""The terminal world map: land polygons, projection, Braille rasteriser, scale bar."""
