"""PKU harness TUI: a terminal AI campus assistant whose abilities come from declarative plugins."""

__version__ = "0.1.0"
