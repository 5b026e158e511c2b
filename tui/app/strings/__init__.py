"""The tables of the app's UI strings, by part of the app; `tui.app.i18n` merges them."""
