"""Recorded tests (language.md §8): replay a plugin's tools against recorded HTTP and ability answers."""
