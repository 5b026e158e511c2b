"""The app's panes and parts: what the four tabs are made of."""
