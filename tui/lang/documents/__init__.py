"""Plugin documents: reading a plugin folder safely, the manifest and tool models, and their problems."""
