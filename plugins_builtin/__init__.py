"""Official plugins as data folders, read with importlib.resources and never imported as code."""
