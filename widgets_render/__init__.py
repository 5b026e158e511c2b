"""Generative-UI spec models and their Textual renderer. Kept free of Textual imports at package level."""
