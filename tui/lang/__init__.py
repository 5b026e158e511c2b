"""The plugin language: expressions, templates and (later) manifests, loader, steps and recorded tests."""
