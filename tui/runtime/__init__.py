"""Headless services: tools, permissions, abilities, store (issue 4). Never imports Textual or tui.app."""
