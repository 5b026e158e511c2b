"""The app's screens: full pages pushed over the tabs, each with its own styles (a .tcss beside it)."""
